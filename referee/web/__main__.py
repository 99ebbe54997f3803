"""``python -m referee.web``: ``referee serve`` (:mod:`referee.web.standalone`)."""

from referee.web.standalone import main

__all__ = ["main"]

if __name__ == "__main__":
    raise SystemExit(main())
