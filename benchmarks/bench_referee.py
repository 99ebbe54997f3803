"""Referee throughput: observations judged per second, side by side with RLCard's UNO game.

    python benchmarks/bench_referee.py [--games 200] [--seed 0] [--repeat 3]

Simulated legal matches (every preset, 2..6 players) are generated first, outside the timing; then
the Referee judges all their observations, and RLCard's UNO game steps the same number of moves with
random legal actions, in the same process. Prints one JSON line:
``{"referee_obs_per_s", "rlcard_steps_per_s", "speedup", ...}``.

``rlcard_steps_per_s`` is ``rlcard.make('uno')``'s ``env.step`` (what an RLCard user steps; it also
encodes the state for a learner); ``rlcard_game_steps_per_s`` is the bare rules engine
``env.game.step``, and ``speedup_vs_game`` compares with that stricter baseline. Best of
``--repeat`` runs for each side.
"""

from __future__ import annotations

import argparse
import json
import logging
import platform
import random
import sys
import time
from typing import Any

from referee.rules import Referee
from referee.rules.simulate import SimulatedGame, simulate_games

log = logging.getLogger("bench_referee")


def time_referee(games: list[SimulatedGame]) -> tuple[int, float, int]:
    """Observations judged, seconds spent in ``Referee.observe``, alerts raised."""
    count = 0
    alerts = 0
    start = time.perf_counter()
    for game in games:
        referee = Referee()
        observe = referee.observe
        for obs in game.observations:
            for line in observe(obs):
                if line.get("type") == "alert":
                    alerts += 1
        count += len(game.observations)
    return count, time.perf_counter() - start, alerts


def time_rlcard_env(steps: int, seed: int) -> float:
    """Seconds for ``rlcard.make('uno')`` to take ``steps`` random legal env steps."""
    import rlcard

    env = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        state, _ = env.reset()
        while not env.is_over() and done < steps:
            action = rng.choice(list(state["legal_actions"]))
            state, _ = env.step(action)
            done += 1
    return time.perf_counter() - start


def time_rlcard_game(steps: int, seed: int) -> float:
    """Seconds for RLCard's bare UNO game (``env.game``) to take ``steps`` random legal steps."""
    import rlcard

    game = rlcard.make("uno", config={"seed": seed}).game
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        game.init_game()
        while not game.is_over() and done < steps:
            game.step(rng.choice(game.get_legal_actions()))
            done += 1
    return time.perf_counter() - start


def run(games: int, seed: int, repeat: int) -> dict[str, Any]:
    simulated = list(simulate_games(games, first_seed=seed))
    observations = sum(len(g.observations) for g in simulated)
    ref_s = min(time_referee(simulated)[1] for _ in range(repeat))
    alerts = time_referee(simulated)[2]
    env_s = min(time_rlcard_env(observations, seed) for _ in range(repeat))
    game_s = min(time_rlcard_game(observations, seed) for _ in range(repeat))
    referee_rate = observations / ref_s
    return {
        "referee_obs_per_s": round(referee_rate),
        "rlcard_steps_per_s": round(observations / env_s),
        "speedup": round(referee_rate / (observations / env_s), 2),
        "rlcard_game_steps_per_s": round(observations / game_s),
        "speedup_vs_game": round(referee_rate / (observations / game_s), 2),
        "observations": observations,
        "games": games,
        "false_alerts": alerts,
        "python": platform.python_version(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="simulated matches to replay")
    parser.add_argument("--seed", type=int, default=0, help="first simulator seed")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per side (best is kept)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    result = run(args.games, args.seed, max(1, args.repeat))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
