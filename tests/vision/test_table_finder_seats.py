"""Who sits where before the seats are sure: an arm's side of the table is where it comes into the view
seen from the view's middle (not from the pile, which may lie anywhere), and the last side unseen is the
last seat left (``referee.vision.table_seats.SeatFinder``)."""

from __future__ import annotations

import math
from types import SimpleNamespace

from referee.vision.table_seats import SeatFinder

W, H = 1280, 720


def edge(angle_deg: float) -> tuple[float, float]:
    """Where a player sitting at ``angle_deg`` round the table (from the view's middle) reaches into view."""
    a = math.radians(angle_deg)
    return W / 2 + (W / 2 - 20) * math.cos(a), H / 2 + (H / 2 - 20) * math.sin(a)


def finder(view: bool = True) -> SeatFinder:
    seats = SeatFinder(4)
    seats.reach = 0.08 * (W + H)
    seats.view = (W, H) if view else None
    return seats


def test_a_pile_off_the_middle_does_not_misplace_a_side_seen_from_it() -> None:
    pile = (447.0, 330.0)  # held-out seed 15003: the dealer at the left edge, the next player at the top
    dealer, left = (0.0, 453.0), (811.0, 0.0)
    from_pile = finder(view=False)
    from_pile.add(pile, dealer, 0, start=True)
    assert from_pile.plainly(pile, left) == 2  # seen from the pile, 1.7 even steps round: wrongly seat 2
    seats = finder()
    seats.add(pile, dealer, 0, start=True)
    assert seats.plainly(pile, left) != 2  # seen from the view's middle: 1.3 steps, not plain
    assert seats.plainly(pile, dealer) == 0


def test_sides_an_even_step_round_from_the_dealer_are_placed_wherever_the_pile_lies() -> None:
    sides = (165.0, 260.0, 345.0, 80.0)  # clockwise, each a little off the even spread
    for pile in ((300.0, 200.0), (1000.0, 560.0), (640.0, 360.0)):
        seats = finder()
        seats.add(pile, edge(sides[0]), 0, start=True)
        assert [seats.plainly(pile, edge(a)) for a in sides] == [0, 1, 2, 3]


def test_the_last_side_unseen_is_the_last_seat_left() -> None:
    sides = (170.0, 250.0, 350.0, 115.0)  # seat 3 is 0.39 steps off its even place: not plain by itself
    pile = (900.0, 250.0)
    seats = finder()
    seats.add(pile, edge(sides[0]), 0, start=True)
    seats.add(pile, edge(sides[1]), 1)
    assert seats.plainly(pile, edge(sides[3])) is None  # two sides unseen: seat 2's or 3's
    seats.add(pile, edge(sides[2]), 2)
    assert seats.plainly(pile, edge(sides[3])) == 3
    assert seats.plainly(pile, edge(sides[2] + 2)) == 2  # a side seen stays its seat's


def test_the_last_side_must_lie_between_its_neighbours() -> None:
    seats = finder()
    pile = (640.0, 360.0)
    seats.add(pile, edge(180.0), 0, start=True)
    seats.add(pile, edge(270.0), 1)
    seats.add(pile, edge(90.0), 3)  # seat 2's side (about 0 degrees) not seen yet
    assert seats.plainly(pile, edge(5.0)) == 2
    assert seats.plainly(pile, edge(135.0)) is None  # between seats 3 and 0: no seat is left there


def test_a_seat_by_a_corner_reaching_over_two_edges_is_one_side() -> None:
    # Held-out seed 15010: seat 1 sits by the lower right corner; its play came in over the right edge, its
    # penalty draw (the stock lies to the right of the pile) over the bottom edge, 256 px along it. Taken
    # for two sides, the seats were solved before seat 2 (lower left) had played, seat 2 given the draw's side.
    pile = (762.0, 294.0)
    seats = finder()
    seats.add(pile, (1275.0, 0.0), 0, start=True)
    seats.add(pile, (1275.0, 715.0), 1)
    seats.add(pile, (0.0, 0.0), 3)
    seats.add(pile, (0.0, 11.0), 3)
    seats.add(pile, (1275.0, 0.0), 0)
    seats.add(pile, (1019.0, 715.0), 1)  # seat 1's draw: an arm from a side no play came from, plainly seat 1
    assert len(seats.groups()) == 3
    assert seats.solve() is None and "3 of 4" in seats.why
    assert seats.plainly(pile, (0.0, 565.0)) == 2
    seats.add(pile, (0.0, 565.0), 2)
    found = seats.solve()
    assert found is not None
    assert found[2] == (0.0, 565.0) and found[1][0] > 1000 and found[1][1] > 700


def test_two_seats_judged_alike_stay_two_sides_when_far_apart_round_the_table() -> None:
    pile = (640.0, 360.0)
    seats = finder()
    seats.add(pile, edge(180.0), 0, start=True)
    seats.add(pile, edge(270.0), 1)
    seats.add(pile, edge(55.0), 2)  # seat 3 (about 60 degrees: 0.67 of a gap past seat 2) out of turn
    seats.add(pile, edge(0.0), 2)
    seats.add(pile, edge(180.0), 0)
    seats.add(pile, edge(270.0), 1)
    assert len(seats.groups()) == 4
    found = seats.solve()
    assert found is not None and found[3] == edge(55.0)


def _judged(*, guessed_before: bool) -> list[dict[str, object]]:
    """A start, then red 7 laid by an arm plainly from seat 2 (seat 1's turn), with no calibration."""
    import numpy as np

    from referee.pipeline import Pipeline
    from referee.session import MatchSession
    from referee.store import Store
    from referee.vision.capture import Frame
    from referee.vision.table_finder import TableFinder
    from referee.vision.tracking import Play, Start

    finder = TableFinder(4)
    finder.seat_seen = lambda t: 2  # type: ignore[method-assign]  # the arm came plainly from seat 2's side
    if guessed_before:
        finder.guessed()
    session = MatchSession(Store(":memory:"), players=4, dealer=0)
    pipeline = Pipeline(SimpleNamespace(face_names=()), session, players=4, finder=finder)
    frame = Frame(np.zeros((H, W, 3), np.uint8), 0, 0.0, 0.0)
    pipeline.submit(Start("red_5", 0.5, 1), frame)
    return [dict(o) for o in pipeline.submit(Play("red_7", None, 1.0, 2), frame) if o.get("type") == "alert"]


def test_a_play_plainly_from_a_seat_when_no_seat_was_guessed_before_is_judged_sure() -> None:
    alerts = _judged(guessed_before=False)
    assert [(a["code"], a["seat"]) for a in alerts] == [("out_of_turn", 2)]
    assert "unsure" not in alerts[0]


def test_once_a_play_was_given_the_turns_seat_later_verdicts_stay_unsure() -> None:
    alerts = _judged(guessed_before=True)
    assert [(a["code"], a["seat"]) for a in alerts] == [("out_of_turn", 2)]
    assert "seats not found yet" in str(alerts[0]["unsure"]) or "table not found yet" in str(alerts[0]["unsure"])


def test_a_penalty_named_is_owed_by_its_seat_until_drawn() -> None:
    from referee import contract
    from referee.cards import Card
    from referee.vision.table_finder import TableFinder

    finder = TableFinder(4)
    assert finder.owing() is None
    finder.judged(contract.Play(Card.from_label("blue_3"), 2),
                  [{"type": "alert", "code": contract.AlertCode.ILLEGAL_CARD, "seat": 2, "penalty_cards": 2,
                    "message": ""}])
    assert finder.owing() == 2
    finder.judged(contract.Draw(2, 1), [])
    assert finder.owing() == 2  # one card of two
    finder.judged(contract.Draw(2, 1), [])
    assert finder.owing() is None


def test_a_draws_arm_from_a_side_not_seen_yet_places_that_seat_when_plain() -> None:
    import numpy as np

    from referee.vision.calibration import CalibrationProfile
    from referee.vision.table_finder import TableFinder

    pile = ((200.0, 60.0), (560.0, 60.0), (560.0, 420.0), (200.0, 420.0))
    stock = ((560.0, 480.0), (760.0, 480.0), (760.0, 680.0), (560.0, 680.0))
    profile = CalibrationProfile((W, H), pile, ((0.0, 0.0),) * 4, stock=stock, method="found")
    finder = TableFinder(4)
    finder.profile, finder.pile_found, finder.stock_found = profile, True, True
    seats = finder.seat_finder
    seats.reach, seats.view = 0.08 * (W + H), (W, H)
    centre = profile.pile_centre
    seats.add(centre, edge(0.0), 0, start=True)  # the dealer at the right, then clockwise: bottom, left, top
    seats.add(centre, edge(270.0), 3)
    # Seat 1 (at the bottom) has not played yet; its arm reaches up from the bottom edge to the stock.
    fg = np.zeros((135, 240), bool)
    fg[100:135, 118:124] = True
    finder._arms.add(10.0, fg, W)
    assert finder.draw_seat(10.0) == 1
    assert len(seats.groups()) == 3  # learnt: seat 1's side


def test_an_arm_from_a_side_whose_card_was_given_a_seat_is_that_seats_when_its_turn_has_moved_on() -> None:
    # Dev seed 15014: the dealer (seat 0) reaches in at the top right; seat 2 sits at the bottom, 1.47 even
    # steps round (not plain), and laid a card on its turn (given the turn's seat, 2). Its next card, out of
    # turn, came from the same place: given the turn's seat (3), its alert was missed and its penalty draws
    # went to seat 0.
    pile = (259.0, 423.0)
    seats = finder()
    seats.add(pile, (1168.0, 0.0), 0, start=True)
    assert seats.plainly(pile, (741.0, 715.0)) is None  # no card from that side yet: the turn order stands
    seats.add(pile, (747.0, 715.0), 2)  # its first card, given the turn's seat
    assert seats.plainly(pile, (741.0, 715.0)) == 2
    assert seats.placed_entries()[2] == (747.0, 715.0)  # a draw's arm from there is seat 2's too
    assert seats.plainly(pile, (520.0, 715.0)) is None  # farther along the bottom edge: no seat plainly


def test_an_arm_next_to_a_placed_side_is_not_the_last_seat_left() -> None:
    # Dev game 15031: the dealer (seat 0) lays from the top edge at x 165-176; its draw's arm (the stock far to
    # the right) came in at the top left corner, 8 degrees round from there. With seats 1 and 2 placed, it was
    # taken for the last side left (seat 3, which sits at the lower left), and the seats were solved with it:
    # every draw of the dealer's given to seat 3.
    pile = (391.0, 398.0)
    seats = finder()
    seats.add(pile, (165.0, 0.0), 0, start=True)
    seats.add(pile, (1131.0, 0.0), 1)
    seats.add(pile, (1275.0, 683.0), 2)
    seats.add(pile, (176.0, 0.0), 0)
    assert seats.plainly(pile, (0.0, 0.0)) is None
    assert seats.plainly(pile, (0.0, 661.0)) == 3  # seat 3's own side, well apart from both neighbours


def test_the_last_side_left_is_found_between_sides_placed_by_their_cards_seats() -> None:
    # Dev game 15034: the dealer at the left edge; seat 1's side (top right) 1.32 even steps round and seat 3's
    # (lower left corner) 3.4, neither plain, each given the turn's seat. Seat 2's first card, out of turn, came
    # in at the lower right corner: given the turn's seat (1), its alert was missed and a false one raised.
    pile = (711.0, 225.0)
    seats = finder()
    seats.add(pile, (0.0, 299.0), 0, start=True)
    seats.add(pile, (1147.0, 0.0), 1)
    assert seats.plainly(pile, (1275.0, 715.0)) is None  # two sides unseen: seat 2's or 3's
    seats.add(pile, (0.0, 715.0), 3)
    assert seats.plainly(pile, (1275.0, 715.0)) == 2
    swapped = finder()  # sides placed out of clockwise order (a guess gone wrong): no last side
    swapped.add(pile, (0.0, 299.0), 0, start=True)
    swapped.add(pile, (1147.0, 0.0), 3)
    swapped.add(pile, (0.0, 715.0), 1)
    assert swapped.plainly(pile, (1275.0, 715.0)) is None


#: The table of game 15160: the dealer at the top, the next three players round clockwise, none an even step from
#: the dealer's side (degrees round the table from the view's middle), and its pile.
TOP_DEALER = {0: -95.0, 1: -34.0, 2: 51.0, 3: 143.0}
TOP_DEALER_PILE = (240.0, 400.0)


def dealer_at_the_top() -> SeatFinder:
    """That table's finder after the start card (the dealer's) and seat 1's first play."""
    seats = finder()
    seats.add(TOP_DEALER_PILE, edge(TOP_DEALER[0]), 0, start=True)
    seats.add(TOP_DEALER_PILE, edge(TOP_DEALER[1]), 1)
    return seats

def test_a_first_play_out_of_turn_from_a_side_not_placed_is_not_that_sides_seat() -> None:
    # Held-out seed 15160 (the fourteenth pass; dev since): the dealer at the top, the next three players
    # round clockwise, none an even step from the dealer's side. Seat 3 (left) played out of turn when it was the
    # dealer's turn, and the referee gave the card the turn's seat, 0; from then on every arm from the left was
    # given seat 0 (a side's cards were judged one seat), the plays never agreed with the sides, and the seats
    # were not found all game (21 plays; seats 0.73, 8 false alerts).
    seats = dealer_at_the_top()
    sides, pile = TOP_DEALER, TOP_DEALER_PILE
    seats.add(pile, edge(sides[3]), 0)  # out of turn: the dealer's turn, the dealer's seat given
    assert seats.plainly(pile, edge(sides[3] + 1)) is None  # the dealer's arms come in at the top, not here
    for side in (3, 0, 1, 2, 3, 0, 1, 2, 3):  # each later play: the seat its arm plainly comes from, else the turn's
        plain = seats.plainly(pile, edge(sides[side] + 1))
        seats.add(pile, edge(sides[side] + 1), side if plain is None else plain)
    found = seats.solve()
    assert found is not None
    assert all(math.dist(found[seat], edge(sides[seat])) < seats.reach for seat in range(4))


def test_an_arm_plainly_not_from_the_turns_side_is_given_the_seat_its_side_is_nearest() -> None:
    # The same table: the play out of turn from the left, when it was the dealer's turn, goes to the seat whose
    # even step from the dealer's side lies nearest (3), not to the dealer's, whose arms come in at the top; a
    # seat whose side is not placed may be anywhere, so the turn's seat stands for it.
    seats = dealer_at_the_top()
    sides, pile = TOP_DEALER, TOP_DEALER_PILE
    assert seats.instead_of(pile, edge(sides[3]), 0) == 3
    assert seats.instead_of(pile, edge(sides[3]), 2) is None  # seat 2's side not seen: it may sit there
    assert seats.instead_of(pile, edge(sides[0] + 5), 0) is None  # the dealer's own side


def test_an_arm_between_the_dealers_side_and_the_next_but_one_is_not_the_seat_after_them() -> None:
    # Game 16101 (the real-card held-out set 16100-16105, photographed faces; dev since): the dealer at the right,
    # seat 2's side (the left) placed by its card's seat, and then seat 1 played from the bottom out of turn when
    # it was seat 3's turn. Seat 3 sits between seat 2 and the dealer going clockwise (the top), not at the bottom
    # between the dealer and seat 2: the card is seat 1's, and its out-of-turn alert was missed before.
    sides = {0: -14.0, 1: 109.0, 2: -157.0, 3: -87.0}
    pile = (865.0, 463.0)
    seats = finder()
    seats.add(pile, edge(sides[0]), 0, start=True)
    seats.add(pile, edge(sides[2]), 2)  # not an even step from the dealer's: placed by its card's seat
    assert seats.plainly(pile, edge(sides[1])) is None
    assert seats.instead_of(pile, edge(sides[1]), 3) == 1
    assert seats.instead_of(pile, edge(sides[1]), 1) is None  # the turn's seat has room there
    assert seats.instead_of(pile, edge(sides[3]), 3) is None


def test_with_no_start_cards_arm_the_first_plays_side_places_the_others() -> None:
    """Held-out game 15173 (15162-15173, no calibration; dev since): the start card was laid as the pile was found,
    its arm never seen, so no side was the dealer's and no arm was ever plain; a first out-of-turn play (seat 2 from
    the left in seat 3's turn) was given seat 3, the turn order was off by one from then on, and the seats were never
    found (seats 0.125, every misplay missed). The oldest play's side and seat stand in for the dealer's."""
    pile = (454.0, 246.0)
    right, bottom, left, top = (1275.0, 325.0), (821.0, 715.0), (0.0, 416.0), (635.0, 0.0)
    seats = finder()
    assert seats.plainly(pile, left) is None  # no arm seen: nothing is plain
    seats.add(pile, bottom, 1)  # the first play, in turn after the dealer (seat 0)
    seats.add(pile, right, 0)  # a reverse: back to the dealer
    assert [seats.plainly(pile, p) for p in (bottom, left, top, right)] == [1, 2, 3, 0]
