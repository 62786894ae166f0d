"""Game options chosen when a game is created."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from .alhambra import HoleRule


class Options(BaseModel):
    """Rule variants of one game. Stored with the game; unknown keys are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: RULES.md section 4 rule 5: `classic` forbids one-cell holes, `strict` any enclosed area.
    holes: HoleRule = "classic"
