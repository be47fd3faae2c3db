# The dealing check (DEAL-*): what should land where, findings and their remedies.
