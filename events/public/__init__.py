"""The public calendar pages: the pages every `url` field of the API points to."""
