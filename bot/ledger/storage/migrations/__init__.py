"""Alembic migrations of the ledger schema (applied by bot.ledger.storage.db.migrate)."""
