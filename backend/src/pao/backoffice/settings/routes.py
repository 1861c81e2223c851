"""``/api/backoffice/settings``: the site settings editor (limits, throttles, flags, closing the
site), owner only; and the four routes every settings editor has, which the content screen
(:mod:`pao.backoffice.content.routes`) reuses for its groups.

Each group answers its settings in force with how to edit each one, saves some or all of them
together (all or nothing, :func:`pao.site.editor.save_group`), lists its versions and reverts
one (:func:`pao.site.editor.revert`). Money is in major units on the wire, like the rest of the
back office API. Every change writes an audit row with the changed keys before and after (the
stored values: money in minor units); players see it within a second (the settings cache).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field, StringConstraints

from pao.backoffice.audit import service as audit
from pao.backoffice.audit.values import settings_recorded
from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.schemas import _Wire, _WireIn
from pao.backoffice.staff.names import names_of
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.uow import SessionDep
from pao.site import editor
from pao.site.editor import Group, Kind
from pao.site.settings import load_site_settings

router = backoffice_router()

OBJECT = "settings"
SAVE = {**AUTHENTICATED, **errors(_422="KEY_INVALID | SETTING_RANGE"), **VALIDATION}
REVERT = {**SAVE, **errors(_404="SETTING_CHANGE_NOT_FOUND")}
ChangeSetId = Annotated[str, StringConstraints(min_length=1, max_length=32)]


class FieldOut(_Wire):
    key: str
    kind: Kind
    choices: list[str] = Field(default_factory=list, description="For kind choice.")


class GroupOut(_Wire):
    group: Group
    fields: list[FieldOut] = Field(description="The group's settings, in the order to show.")
    values: dict[str, Any] = Field(
        description="Each setting in force by key: money in major units, rates in basis "
        "points, texts {th, la, en}."
    )
    change_set: str | None = Field(
        default=None,
        description="After a save or revert: the new version's id, none if nothing changed.",
    )


class GroupIn(_WireIn):
    values: dict[str, Any] = Field(
        description="Some or all of the group's settings, in the form GET answers them."
    )


class ChangeOut(_Wire):
    key: str
    before: Any
    after: Any


class VersionOut(_Wire):
    change_set: str
    at: datetime
    actor: str = Field(description="A staff login, or ops:<user> for the command line.")
    actor_name: str = Field(description="The staff member's display name (else the actor).")
    changes: list[ChangeOut]

    @classmethod
    def of(cls, version: editor.Version, names: dict[str, str]) -> VersionOut:
        """A stored version as every group's history answers it."""
        return cls(
            change_set=version.change_set,
            at=version.at,
            actor=version.actor,
            actor_name=names.get(version.actor, version.actor),
            changes=[ChangeOut(key=c.key, before=c.before, after=c.after) for c in version.changes],
        )


class HistoryOut(_Wire):
    items: list[VersionOut] = Field(description="Newest first.")


async def _group_out(session: SessionDep, group: Group, change_set: str | None = None) -> GroupOut:
    settings = await load_site_settings(session)
    return GroupOut(
        group=group,
        fields=[
            FieldOut(key=spec.key, kind=spec.kind, choices=list(spec.choices))
            for spec in editor.GROUPS[group]
        ],
        values=editor.group_values(settings, group),
        change_set=change_set,
    )


async def _audited(
    session: SessionDep, request: Request, *, action: str, group: Group, saved: editor.Saved
) -> None:
    if saved.change_set is None:
        return  # nothing changed, nothing done
    await audit.record(
        session,
        actor=actor_of(request),
        action=action,
        object_type=OBJECT,
        object_id=group.value,
        # Money settings tagged with their currencies (each shown formatted in the log).
        before=settings_recorded(saved.before),
        after=settings_recorded(saved.after),
        detail=f"change set {saved.change_set}",
    )


def add_group_routes(
    target: APIRouter, *, group: Group, path: str, permission: Permission, name: str
) -> None:
    """GET, PUT, GET history and POST revert of one group under ``path``."""
    allowed = Depends(require(permission))

    @target.get(
        path,
        operation_id=f"backoffice{name}",
        response_model=GroupOut,
        responses=AUTHENTICATED,
        summary=f"The {group.value} settings in force and how to edit each",
    )
    async def read(session: SessionDep, staff: Staff = allowed) -> GroupOut:
        return await _group_out(session, group)

    @target.put(
        path,
        operation_id=f"backoffice{name}Save",
        response_model=GroupOut,
        responses=SAVE,
        summary=f"Save {group.value} settings together (all or nothing), as one version",
    )
    async def save(
        body: GroupIn, request: Request, session: SessionDep, staff: Staff = allowed
    ) -> GroupOut:
        saved = await editor.save_group(
            session, group=group, values=body.values, actor=actor_of(request).label
        )
        await _audited(session, request, action="settings.save", group=group, saved=saved)
        return await _group_out(session, group, saved.change_set)

    @target.get(
        f"{path}/history",
        operation_id=f"backoffice{name}History",
        response_model=HistoryOut,
        responses=AUTHENTICATED,
        summary=f"Versions of the {group.value} settings: who changed what, when",
    )
    async def versions(session: SessionDep, staff: Staff = allowed) -> HistoryOut:
        found = await editor.history(session, group=group)
        names = await names_of(session, (v.actor for v in found))
        return HistoryOut(items=[VersionOut.of(v, names) for v in found])

    @target.post(
        f"{path}/history/{{change_set}}/revert",
        operation_id=f"backoffice{name}Revert",
        response_model=GroupOut,
        responses=REVERT,
        summary=f"Put back the {group.value} values from before a version (a new version)",
    )
    async def undo(
        change_set: ChangeSetId, request: Request, session: SessionDep, staff: Staff = allowed
    ) -> GroupOut:
        saved = await editor.revert(
            session, group=group, change_set=change_set, actor=actor_of(request).label
        )
        await _audited(session, request, action="settings.revert", group=group, saved=saved)
        return await _group_out(session, group, saved.change_set)


add_group_routes(
    router,
    group=Group.SITE,
    path="/settings",
    permission=Permission.SETTINGS_MANAGE,
    name="Settings",
)
