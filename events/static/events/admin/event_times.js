// The event form's end cannot be picked before its start: the end date's earliest choice is the
// start date and, on the same day (unless the event is all day), the end time's is the start time.
// The server refuses such an end anyway; this keeps the pickers from offering it.
'use strict';
{
    function keepEndAfterStart() {
        const startDate = document.getElementById('id_start_0');
        const startTime = document.getElementById('id_start_1');
        const endDate = document.getElementById('id_end_0');
        const endTime = document.getElementById('id_end_1');
        const allDay = document.getElementById('id_all_day');
        if (!startDate || !startTime || !endDate || !endTime) {
            return;  // a read-only page
        }
        function update() {
            endDate.min = startDate.value;
            if (startDate.value && endDate.value && endDate.value < startDate.value) {
                endDate.value = startDate.value;
            }
            const sameDay = endDate.value === startDate.value && !(allDay && allDay.checked);
            endTime.min = sameDay ? startTime.value : '';
            if (sameDay && startTime.value && endTime.value && endTime.value < startTime.value) {
                endTime.value = startTime.value;
            }
        }
        for (const input of [startDate, startTime, endDate, endTime, allDay]) {
            if (input) {
                input.addEventListener('change', update);
            }
        }
        update();
    }
    if (document.readyState === 'loading') {
        document.addEventListener('DOMContentLoaded', keepEndAfterStart);
    } else {
        keepEndAfterStart();
    }
}
