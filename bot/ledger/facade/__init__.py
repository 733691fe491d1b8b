"""The ledger facade, one module per aggregate over the base (`base.Calls`): recording (hands and entries
waiting for Confirm), settling (money after the night), summaries (due session summaries), and `service`
(groups, sessions, players), which puts them together as `LedgerService`."""
