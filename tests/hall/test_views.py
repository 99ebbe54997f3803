"""The hall's views: pure data, no broker."""

from __future__ import annotations

from referee.hall.views import standings


def _tile(table: str, scoring: str, scores: list[int], won: list[int] | None = None) -> dict[str, object]:
    return {"table": table, "scoring": scoring, "names": [f"{table}{i}" for i in range(len(scores))],
            "scores": scores, "rounds_won": won or [0] * len(scores)}


def test_the_winner_takes_the_round_s_points_so_the_highest_leads() -> None:
    rows = standings([_tile("a", "winner_takes", [40, 210, 0], [0, 2, 0])])
    assert [(r["name"], r["rank"]) for r in rows] == [("a1", 1), ("a0", 2), ("a2", 3)]


def test_where_points_are_penalties_the_fewest_lead() -> None:
    """``own_points`` (the Dutch strafpunten) and ``elimination``: a player scores the cards left in hand."""
    for scoring in ("own_points", "elimination"):
        rows = standings([_tile("b", scoring, [40, 210, 0])])
        assert [r["name"] for r in rows] == ["b2", "b0", "b1"], scoring


def test_a_tile_without_its_scoring_is_ranked_as_the_winner_takes() -> None:
    tile = _tile("c", "winner_takes", [5, 9])
    del tile["scoring"]
    assert [r["name"] for r in standings([tile])] == ["c1", "c0"]
