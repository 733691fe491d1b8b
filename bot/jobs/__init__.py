"""Scheduled work as sweeps over ledger state on PTB's JobQueue: overdue previews expire, idle sessions
end, weekly leaderboards post (bot/jobs/sweeps.py). `setup_jobs(application)` adds them and the heartbeat.
"""

from bot.jobs.schedule import setup_jobs
from bot.jobs.sweeps import end_idle_sessions, expire_previews, post_weekly_boards, weekly_text

__all__ = ["end_idle_sessions", "expire_previews", "post_weekly_boards", "setup_jobs", "weekly_text"]
