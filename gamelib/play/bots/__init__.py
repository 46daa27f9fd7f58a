"""Bots: players that choose a move in a time limit. Pick one by name with :func:`make_bot`."""

from gamelib.play.bots.base import BOT_NAMES, Bot, Decision, make_bot

__all__ = ["BOT_NAMES", "Bot", "Decision", "make_bot"]
