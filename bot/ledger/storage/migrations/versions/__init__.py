"""Alembic revision scripts of the ledger schema."""
