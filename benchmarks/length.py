"""How the time to judge one case grows with the length of its conversation.

`python benchmarks/length.py [--rounds 10,40,160,640,1000]` builds, for each
length, one openai-chat request with that many tool rounds (an assistant
turn with two calls, two results) and its answer, and times ``run_case``
with the reference adapter (CPU, best of three) against the floor (the same
adapter calls alone). Linear growth keeps the time per round constant.
"""

from __future__ import annotations

import argparse
import time

from toolwire.harness.adapters.base import Direction, LoadedAdapter
from toolwire.harness.adapters.loader import load_adapter
from toolwire.harness.engine.gc_threshold import fewer_gc_passes
from toolwire.harness.engine.runner import run_case
from toolwire.harness.fuzz.cases import plan_case
from toolwire.harness.model import OPENAI_CHAT
from toolwire.harness.strategies.plan import ExchangePlan, weather_rounds
from toolwire.harness.strategies.render import render_request, render_response


def _best(function: object, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()  # type: ignore[operator]
        times.append(time.process_time() - start)
    return min(times)


def _floor(plan: ExchangePlan, adapter: LoadedAdapter) -> None:
    request, response = render_request(plan), render_response(plan)
    for kind, payload in (("request", request), ("response", response)):
        for direction in sorted(adapter.directions, key=str):
            if direction.kind == kind and direction.source == plan.dialect:
                output = adapter.convert_direction(payload, direction, request)
                adapter.id_mapping(payload, direction)
                back = Direction(direction.kind, direction.target, direction.source)
                if adapter.supports(back):
                    adapter.convert_direction(output, back)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", default="10,40,160,640,1000")
    arguments = parser.parse_args()
    adapter = load_adapter("reference")
    print(
        f"{'rounds':>6} {'turns':>6} {'run_case s':>11} {'floor s':>8} {'ms/round':>9} {'ratio':>6}"
    )
    for rounds in (int(item) for item in arguments.rounds.split(",")):
        plan = weather_rounds(OPENAI_CHAT, rounds)
        case = plan_case(plan)
        with fewer_gc_passes():  # as `toolwire run` runs; the floor alike
            judged = _best(lambda case=case: run_case(case, adapter))
            floor = _best(lambda plan=plan: _floor(plan, adapter))
        turns = len(render_request(plan)["messages"])  # 1 + 3 per round
        print(
            f"{rounds:6d} {turns:6d} {judged:11.3f} {floor:8.3f} "
            f"{judged / rounds * 1000:9.2f} {judged / floor:6.1f}"
        )


if __name__ == "__main__":
    main()
