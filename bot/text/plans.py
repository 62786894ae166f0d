"""A plan in words: its rules as the player reads them back, and what it did at their turn."""

from __future__ import annotations

from engine import Building, Buy, Place, PlaceInReserve, TakeMoney

from ..core.plans import Otherwise, Placement, Plan, PlanReport, PlanRule, Skipped
from . import i18n
from .present import building_name, cards_text, cell_text, the_building


def placement_text(locale: str, place: Placement) -> str:
    if isinstance(place, tuple):
        return i18n.t(locale, "plan.place_at", cell=cell_text(*place))
    return i18n.t(locale, "plan.place_reserve" if place == "reserve" else "plan.place_later")


def type_name(locale: str, kind: int) -> str:
    """A building type in the user's language ("Garden")."""
    return i18n.t(locale, f"building.{Building(kind).label}")


def rule_line(locale: str, number: int, rule: PlanRule) -> str:
    if rule.kind is not None:
        return i18n.t(
            locale,
            "plan.rule_type",
            number=number,
            type=type_name(locale, rule.kind),
            limit=rule.limit,
            placement=placement_text(locale, rule.place),
        )
    return i18n.t(
        locale,
        "plan.rule",
        number=number,
        building=building_name(locale, rule.tile),
        cards=cards_text(locale, rule.cards),
        placement=placement_text(locale, rule.place),
    )


def otherwise_line(locale: str, otherwise: Otherwise) -> str:
    if isinstance(otherwise, tuple):
        return i18n.t(locale, "plan.otherwise_take", cards=cards_text(locale, otherwise))
    return i18n.t(locale, "plan.otherwise_most" if otherwise == "most" else "plan.otherwise_wait")


def plan_lines(locale: str, game_id: int, plan: Plan) -> list[str]:
    """The plan as its player reads it back: numbered rules, then what happens otherwise."""
    if plan.empty:
        return [i18n.t(locale, "plan.none", game=game_id)]
    title = "plan.title_standing" if plan.standing else "plan.title"
    lines = [f"**{i18n.t(locale, title, game=game_id)}**"]
    lines += [rule_line(locale, n, rule) for n, rule in enumerate(plan.rules, start=1)]
    lines.append(otherwise_line(locale, plan.otherwise))
    lines.append(i18n.t(locale, "plan.standing_note" if plan.standing else "plan.once_note"))
    return lines


def skipped_text(locale: str, plan: Plan, index: int, why: Skipped) -> str:
    rule = plan.rules[index]
    if rule.kind is not None:
        return i18n.t(
            locale,
            f"plan.skipped_type.{why if why in ('none', 'cell') else 'unpaid'}",
            number=index + 1,
            type=type_name(locale, rule.kind),
            limit=rule.limit,
        )
    return i18n.t(
        locale,
        f"plan.skipped.{why}",
        number=index + 1,
        building=the_building(locale, plan.rules[index].tile),
    )


def report_lines(locale: str, game_id: int, report: PlanReport) -> list[str]:
    """The player's DM after their plan met their turn: what it did, why, and what is left."""
    plan = report.plan
    skipped = [skipped_text(locale, plan, i, why) for i, why in report.skipped]
    standing = [i18n.t(locale, "plan.report.standing")] if plan.standing else []
    if not report.steps:  # nothing held and the plan waits: say why each rule did not hold
        return [i18n.t(locale, "plan.report.waited", game=game_id), *skipped, *standing]
    lines = []
    for step in report.steps:
        move = step.move
        if isinstance(move, Buy) and step.rule is not None:
            lines.append(
                i18n.t(
                    locale,
                    "plan.report.bought",
                    game=game_id,
                    number=step.rule + 1,
                    building=the_building(
                        locale, step.tile if step.tile is not None else plan.rules[step.rule].tile
                    ),
                    cards=cards_text(locale, move.cards),
                )
            )
        elif isinstance(move, Place):
            lines.append(
                i18n.t(
                    locale,
                    "plan.report.placed",
                    building=the_building(locale, move.tile),
                    cell=cell_text(move.x, move.y),
                )
            )
        elif isinstance(move, PlaceInReserve):
            lines.append(
                i18n.t(locale, "plan.report.reserved", building=the_building(locale, move.tile))
            )
        elif isinstance(move, TakeMoney):
            lines.append(
                i18n.t(
                    locale, "plan.report.took", game=game_id, cards=cards_text(locale, move.cards)
                )
            )
    lines += skipped
    if report.turn_left:
        lines.append(i18n.t(locale, "plan.report.exact" if report.exact else "plan.report.yours"))
    else:
        lines.append(i18n.t(locale, "plan.report.done"))
    return lines + standing
