"""Solutions to the lessons' exercises, for instructors (see README.md)."""
