"""Business rules shared by the API and the admin: multi-model writes, in one transaction each."""
