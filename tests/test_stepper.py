"""The stepper: a player on one recorded search; stepping moves through the replay; captions follow seed 003."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from gamelib import GameTree, RecordingTracer, alphabeta
from gamelib.search.tracing import Cutoff
from gamelib.view.frames import decode_panel
from gamelib.view.replay import ReplayError
from gamelib.view.stepper import Stepper, step_through
from tests.conftest import step_after
from tests.player_pages import mime_data, page_data, same_picture


def step_after_cut_at_8(broeders: GameTree) -> int:
    tracer = RecordingTracer()
    alphabeta(broeders, tracer=tracer)
    return step_after(tracer.events, Cutoff, "8")


def trace_length(broeders: GameTree) -> int:
    tracer = RecordingTracer()
    alphabeta(broeders, tracer=tracer)
    return len(tracer.events)


def widget_data(stepper: Stepper) -> dict[str, Any]:
    """The frames the widget holds, as the page reads them: gzipped JSON."""
    data: dict[str, Any] = json.loads(gzip.decompress(stepper.widget.frames))
    return data








def test_next_three_times(broeders: GameTree) -> None:
    stepper = step_through(broeders)
    assert stepper.step == 0 and stepper.widget.step == 0 and stepper.player.data["steps"] == trace_length(broeders)
    captions = [stepper.caption_html]
    for _ in range(3):
        stepper.next()
        captions.append(stepper.caption_html)
    assert stepper.widget.step == 3 and stepper.step == 3
    assert len(set(captions)) == 4  # the line changes at every step
    # AlphaBeta0.cpp's third line: "pos = 3 alpha = 0 beta = 15"
    assert "enter pos 3 with alpha = 0, beta = 15" in stepper.caption_text
    assert "nodes entered 3" in stepper.caption_text
    assert "enter pos 3 with alpha = 0, beta = 15" in stepper.caption_html


def test_first_back_next_last_stay_inside_the_trace(broeders: GameTree) -> None:
    stepper = step_through(broeders)
    stepper.next()
    stepper.next()
    assert stepper.step == 2
    stepper.back()
    assert stepper.step == 1
    stepper.last()
    assert stepper.step == trace_length(broeders)
    stepper.next()
    assert stepper.step == trace_length(broeders)  # stays at the end
    stepper.first()
    stepper.back()
    assert stepper.step == 0  # stays at the start


def test_a_step_set_by_the_page_is_the_step_shown(broeders: GameTree) -> None:
    stepper = step_through(broeders)
    stepper.widget.step = 3  # what a click in the page does
    assert stepper.step == 3 and "enter pos 3 with alpha = 0, beta = 15" in stepper.caption_text
    assert 'data-step="3"' in stepper.svg


def test_last_shows_finished(broeders: GameTree) -> None:
    stepper = step_through(broeders)
    stepper.last()
    assert "finished" in stepper.caption_text
    assert "leave pos 0 with value 4" in stepper.caption_text  # seed: the root's value is 4
    assert "cutoffs 5" in stepper.caption_text


def test_go_and_the_cutoff_at_8(broeders: GameTree) -> None:
    tracer = RecordingTracer()
    alphabeta(broeders, tracer=tracer)
    stepper = Stepper(broeders, tracer.events, title="Broeders")
    cut = step_after(tracer.events, Cutoff, "8")
    stepper.go(cut)
    assert "pos 8: 3 &lt;= alpha 4, cut: position 18 is never searched" in stepper.caption_html
    with pytest.raises(ReplayError):
        stepper.go(len(tracer.events) + 1)
    with pytest.raises(ReplayError):
        stepper.go(-1)
    assert stepper.step == cut  # a refused step leaves the step shown


def test_picture_follows_the_step(broeders: GameTree) -> None:
    stepper = step_through(broeders)
    stepper.go(3)
    assert 'data-step="3"' in stepper.svg and 'id="node-3"' in stepper.svg
    # the widget shows it: its frames, decoded at its step, are the same picture and words
    svg, words, _ = decode_panel(widget_data(stepper), 0, stepper.widget.step)
    assert same_picture(svg, stepper.svg) and words == stepper.caption_html
    stepper.go(4)
    assert not same_picture(svg, stepper.svg)


def test_no_graphviz_needed(broeders: GameTree, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("gamelib.view.dot.shutil.which", lambda name: None)
    stepper = step_through(broeders)
    stepper.go(step_after_cut_at_8(broeders))
    assert '<g id="node-18" class="node max pruned"' in stepper.svg
    assert capsys.readouterr().out == ""


def test_the_frames_cover_the_trace(broeders: GameTree) -> None:
    stepper = step_through(broeders)
    data = widget_data(stepper)
    assert data["steps"] == stepper.player.data["steps"] == trace_length(broeders)
    assert len(stepper.panel.frames) == trace_length(broeders) + 1  # step 0, nothing searched, to the last event
    stepper.last()
    last, words, _ = decode_panel(data, 0, data["steps"])
    assert same_picture(last, stepper.svg) and "(finished)" in words


def test_step_through_checks_its_arguments(broeders: GameTree) -> None:
    with pytest.raises(ValueError, match="minimax, alphabeta, negascout, pvs"):
        step_through(broeders, "nope")
    with pytest.raises(ValueError, match="fail_soft"):
        step_through(broeders, "minimax", fail_soft=True)


def test_step_through_minimax_and_options(broeders: GameTree) -> None:
    full = step_through(broeders, "minimax")
    full.last()
    assert "nodes entered 31" in full.caption_text and "value 4" in full.caption_text
    # MinMax0.cpp's values of positions 3..6 as static values, searched 2 plies deep: 4 again.
    shallow = step_through(broeders.with_values({"3": 4, "4": 8, "5": 2, "6": 14}), "minimax", depth=2)
    shallow.last()
    assert "nodes entered 7" in shallow.caption_text and "value 4" in shallow.caption_text
    soft = step_through(broeders, "alphabeta", fail_soft=True)
    assert "fail_soft=True" in soft.title


def test_a_page_without_a_kernel_shows_the_stepper_s_picture(broeders: GameTree) -> None:
    stepper = step_through(broeders, "negascout")
    stepper.go(5)
    bundle = mime_data(stepper._repr_mimebundle_())
    assert "application/vnd.jupyter.widget-view+json" in bundle
    data, opens_at = page_data(bundle["text/html"])
    assert opens_at == 5
    svg, words, _ = decode_panel(data, 0, opens_at)
    assert same_picture(svg, stepper.svg) and words == stepper.caption_html
