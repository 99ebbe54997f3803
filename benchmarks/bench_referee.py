"""Referee throughput: observations judged per second, side by side with RLCard's UNO game.

    python benchmarks/bench_referee.py [--games 200] [--seed 0] [--repeat 3]
    python benchmarks/bench_referee.py --detection 100   # misplay detection rate per alert code

Simulated legal matches (every preset, 2..6 players) are generated first, outside the timing; then
the Referee judges all their observations, and RLCard's UNO game steps the same number of moves with
random legal actions, in the same process. Prints one JSON line:
``{"referee_obs_per_s", "rlcard_steps_per_s", "speedup", ...}``.

``rlcard_steps_per_s`` is ``rlcard.make('uno')``'s ``env.step`` (what an RLCard user steps; it also
encodes the state for a learner); ``rlcard_game_steps_per_s`` is the bare rules engine
``env.game.step``, and ``speedup_vs_game`` compares with that stricter baseline. Best of
``--repeat`` runs for each side. Every rate is also given in CPU time (``*_per_cpu_s``,
``speedup_cpu``), which stays fair when other jobs load the machine.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import random
import sys
import time
from typing import Any

from referee.rules import Referee
from referee.rules.simulate import (
    ALERT_CODES,
    SIM_PRESETS,
    SimulatedGame,
    simulate_game,
    simulate_games,
)

log = logging.getLogger("bench_referee")


Timing = tuple[float, float]  # (wall seconds, CPU seconds of this process)


def _now() -> Timing:
    return time.perf_counter(), time.process_time()


def _since(start: Timing) -> Timing:
    wall, cpu = _now()
    return wall - start[0], cpu - start[1]


def time_referee(games: list[SimulatedGame]) -> tuple[int, Timing, int]:
    """Observations judged, time spent in ``Referee.observe``, alerts raised."""
    count = 0
    alerts = 0
    start = _now()
    for game in games:
        referee = Referee()
        observe = referee.observe
        for obs in game.log():
            for line in observe(obs):
                if line.get("type") == "alert":
                    alerts += 1
        count += len(game.observations)
    return count, _since(start), alerts


def time_rlcard_env(steps: int, seed: int) -> Timing:
    """Time for ``rlcard.make('uno')`` to take ``steps`` random legal env steps."""
    import rlcard

    env = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)
    done = 0
    start = _now()
    while done < steps:
        state, _ = env.reset()
        while not env.is_over() and done < steps:
            action = rng.choice(list(state["legal_actions"]))
            state, _ = env.step(action)
            done += 1
    return _since(start)


def time_rlcard_game(steps: int, seed: int) -> Timing:
    """Time for RLCard's bare UNO game (``env.game``) to take ``steps`` random legal steps."""
    import rlcard

    game = rlcard.make("uno", config={"seed": seed}).game
    rng = random.Random(seed)
    done = 0
    start = _now()
    while done < steps:
        game.init_game()
        while not game.is_over() and done < steps:
            game.step(rng.choice(game.get_legal_actions()))
            done += 1
    return _since(start)


def _best(runs: list[Timing]) -> Timing:
    return min(r[0] for r in runs), min(r[1] for r in runs)


def run(games: int, seed: int, repeat: int) -> dict[str, Any]:
    simulated = list(simulate_games(games, first_seed=seed))
    observations = sum(len(g.observations) for g in simulated)
    referee_runs = [time_referee(simulated) for _ in range(repeat)]
    ref = _best([r[1] for r in referee_runs])
    alerts = referee_runs[0][2]
    env = _best([time_rlcard_env(observations, seed) for _ in range(repeat)])
    bare = _best([time_rlcard_game(observations, seed) for _ in range(repeat)])
    result: dict[str, Any] = {}
    for clock, i in (("", 0), ("_cpu", 1)):
        referee_rate = observations / ref[i]
        env_rate = observations / env[i]
        game_rate = observations / bare[i]
        per = "per_cpu_s" if clock else "per_s"
        result[f"referee_obs_{per}"] = round(referee_rate)
        result[f"rlcard_steps_{per}"] = round(env_rate)
        result[f"speedup{clock}"] = round(referee_rate / env_rate, 2)
        result[f"rlcard_game_steps_{per}"] = round(game_rate)
        result[f"speedup_vs_game{clock}"] = round(referee_rate / game_rate, 2)
    result.update(
        observations=observations,
        games=games,
        false_alerts=alerts,
        python=platform.python_version(),
        load_avg_1m=round(os.getloadavg()[0], 2),
    )
    return result


def alerts_of(game: SimulatedGame) -> list[tuple[str, int]]:
    referee = Referee()
    found: list[tuple[str, int]] = []
    for obs in game.log():
        for line in referee.observe(obs):
            if line.get("type") == "alert":
                found.append((line["code"], line["seat"]))
    return found


def detection(games: int, seed: int) -> dict[str, Any]:
    """Per alert code: matches with the misplay injected, how many were caught exactly (right
    code and seat, nothing else raised); plus false alerts over the same number of legal matches."""
    per_code: dict[str, dict[str, Any]] = {}
    for code in ALERT_CODES:
        injected = caught = 0
        ways: dict[str, list[int]] = {}
        for k in range(games):
            s = seed + k
            game = simulate_game(s, SIM_PRESETS[s % 6], 2 + (s // 6) % 5, code)
            if not game.injected:
                continue
            ok = alerts_of(game) == game.expected_alerts
            injected += 1
            caught += ok
            if game.how:
                tally = ways.setdefault(game.how, [0, 0])
                tally[0] += 1
                tally[1] += ok
        rate = caught / injected if injected else None
        per_code[code] = {"injected": injected, "caught": caught, "rate": rate}
        if ways:
            per_code[code]["by_way"] = {
                way: {"injected": n, "caught": c} for way, (n, c) in ways.items()
            }
    false_alerts = sum(len(alerts_of(g)) for g in simulate_games(games, first_seed=seed))
    return {"detection": per_code, "legal_games": games, "false_alerts": false_alerts}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="simulated matches to replay")
    parser.add_argument("--seed", type=int, default=0, help="first simulator seed")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per side (best is kept)")
    parser.add_argument(
        "--detection", type=int, metavar="N", help="instead: injected-misplay detection, N per code"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.detection:
        print(json.dumps(detection(args.detection, args.seed)))
        return 0
    result = run(args.games, args.seed, max(1, args.repeat))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
