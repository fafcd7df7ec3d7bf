"""Transcripts: every model call of an agent, stored with its decision; staff-only pages and JSONL downloads."""
