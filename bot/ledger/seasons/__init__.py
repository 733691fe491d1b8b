"""A group's seasons: a season's figures from its nights (`figures`), the seasons as ledger state
(`state`)."""
