"""Development tools of the Kalooki referee (not part of the service)."""
