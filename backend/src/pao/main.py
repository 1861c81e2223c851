"""The ASGI application: FastAPI (API), the sandbox services and the built SPA, in one app.

``create_app()`` is the only composition root: it wires the engine, the unit of work, the
optional Redis client, every domain's router, and the ports through which lower domains ask
the ones above them (:mod:`pao.kit.ports`).
"""

from __future__ import annotations

import gc
import gzip
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
from fastapi import FastAPI, Request, status
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.convertors import Convertor, register_url_convertor
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles

import pao.models  # noqa: F401  (every table and domain event subscriber)
from pao import __version__
from pao.backoffice.wiring import chat_agents
from pao.backoffice.wiring import install as install_backoffice
from pao.core import reserve
from pao.core.db import create_engine, create_read_sessionmaker, create_sessionmaker
from pao.core.edge import install_edge
from pao.core.errors import install_error_handlers
from pao.core.fast_lane import FastLane
from pao.core.logging import configure_logging, register_secret_routes
from pao.core.openapi import document_common_errors
from pao.core.ratelimit import create_rate_limiter
from pao.core.request_limits import FORM_LIMITS, KIB, BodyLimit, json_limit, upload_limit
from pao.core.route_table import declared_routes
from pao.core.security_headers import (
    SecurityHeadersMiddleware,
    document_policy,
    inline_script_hashes,
)
from pao.core.settings import Settings, get_settings
from pao.games.router import lean_endpoints as games_lean
from pao.games.router import register as games_register
from pao.games.router import register_seamless_callbacks
from pao.games.router import transfer_router as games_transfer_router
from pao.identity.router import router as identity_router
from pao.kit.jobs import JobRunner
from pao.kit.ports import require_wired
from pao.kit.storage import LocalFileStore
from pao.observability import wiring as observability
from pao.payments.scb.oauth import create_token_cache
from pao.payments.slips.decoder import MAX_BYTES as SLIP_MAX_BYTES
from pao.payments.slips.exceptions import SlipTooLarge
from pao.payments.slips.install import install_slips_and_payouts
from pao.payments.slips.router import lean_endpoints as slips_lean
from pao.payments.wiring import install_qr_payments
from pao.promotions.routes import bonuses as bonus_routes
from pao.promotions.routes import codes as promotion_code_routes
from pao.promotions.routes import invite as invite_routes
from pao.promotions.routes import refund as refund_routes
from pao.promotions.routes import wheel as wheel_routes
from pao.promotions.wiring import install as install_promotions
from pao.protection.router import router as protection_router
from pao.reports.jobs import register as reports_register
from pao.site.images import MAX_BYTES as IMAGE_MAX_BYTES
from pao.site.images import ImageTooLarge
from pao.site.images_router import router as images_router
from pao.site.line_qr import router as line_qr_router
from pao.site.router import router as site_router
from pao.site.termination import TerminationMiddleware
from pao.site.variant import variant_document
from pao.support.router import lean_endpoints as chat_lean
from pao.support.uploads import MAX_BYTES as CHAT_MAX_BYTES
from pao.support.uploads import too_large as chat_file_too_large
from pao.support.wiring import install as install_chat
from pao.wallet.router import lean_endpoints as wallet_lean
from pao.wallet.router import router as wallet_router

# Every request body is bounded at the edge (pao.core.request_limits): a JSON or form body to
# 64 KiB. The routes that take more, by operation id, and what a larger body is answered (413):
BODY_LIMITS: dict[str, BodyLimit] = {
    # Uploads: the documented file limits (docs/domain/), plus the multipart framing.
    "uploadSlip": upload_limit(SLIP_MAX_BYTES, SlipTooLarge()),
    "chatUploadImage": upload_limit(CHAT_MAX_BYTES["image"], chat_file_too_large("image")),
    "chatUploadVideo": upload_limit(CHAT_MAX_BYTES["video"], chat_file_too_large("video")),
    "agentUploadImage": upload_limit(CHAT_MAX_BYTES["image"], chat_file_too_large("image")),
    "agentUploadVideo": upload_limit(CHAT_MAX_BYTES["video"], chat_file_too_large("video")),
    "backofficeImageUpload": upload_limit(IMAGE_MAX_BYTES, ImageTooLarge()),
    # An agent's quick replies: 2,000 characters of text and 11 replies of 80 + 1,000, i.e.
    # 13,880 characters, 83 KB when a client escapes every Thai letter as \uXXXX.
    "agentSendMessage": json_limit(128 * KIB),
    # LINE's webhook: a batch of events (LINE publishes no bound; its bodies are small).
    "lineWebhook": json_limit(1024 * KIB),
    # A bonus with its 10 banners of 3 × 4,000 characters of HTML (pao.promotions.content),
    # up to 6 bytes each when escaped: about 720 KB.
    "backofficePromotionCreate": json_limit(1024 * KIB),
    "backofficePromotionUpdate": json_limit(1024 * KIB),
    # The wheel: up to 16 slices, each with 3 × 4,000 characters of HTML and its short texts
    # (pao.promotions.wheel_editor), up to 6 bytes a character when escaped: about 1.2 MB.
    "backofficeWheelSave": json_limit(2048 * KIB),
}
# The sandbox's routes, when it is mounted: the sandbox LINE page's image, base64 in JSON
# (10 MB of image, a third more).
SANDBOX_BODY_LIMITS: dict[str, BodyLimit] = {"sandboxLineSend": json_limit(14 * 1024 * KIB)}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    configure_logging(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Serving without the third parties' secrets is refused (the contract build never starts).
        settings.require_third_party_secrets()
        if settings.sandbox:
            from pao.sandbox.store import create_sandbox_engine, init_sandbox_store

            app.state.sandbox_engine = create_sandbox_engine(settings)
            app.state.sandbox_sessionmaker = await init_sandbox_store(app.state.sandbox_engine)
        async with httpx.AsyncClient(
            timeout=httpx.Timeout(15.0), transport=app.state.http_transport
        ) as http:
            # Adapters reach third parties through this client; tests may swap its transport.
            app.state.http = http
            runner = JobRunner(app, app.state.jobs)
            if settings.run_jobs:
                runner.start()
            observability.start(app, settings)
            if app.state.lives_as_long_as_the_process:
                # Everything built at start-up (modules, routes, compiled statements, the
                # models' metadata) is moved out of the collector's sight, so that a collection
                # under load walks only the requests' own objects (the profile of a withdrawal
                # showed ≈ 10 % of a worker's CPU in collections; docs/benchmarks.md). Not for
                # apps built and dropped in one process (the tests): frozen, they never go.
                gc.collect()
                gc.freeze()
            yield
            # uvicorn has finished the requests in flight by now; a job's tick in progress
            # (a payout call) is let finish too, within the same grace.
            await observability.stop(app, settings)
            await runner.stop(grace_seconds=settings.shutdown_grace_seconds)
            await app.state.chat.close()
        await app.state.rate_limiter.close()
        await app.state.scb_tokens.close()
        await app.state.provider_health.close()
        await reserve.release(app.state.engine)
        await app.state.engine.dispose()
        if settings.sandbox:
            await app.state.sandbox_engine.dispose()

    # The interactive docs and the live OpenAPI document help development; in production they
    # would only hand a prober the map of every route (the contract is in the repository).
    public_docs = settings.env != "production"
    app = FastAPI(
        title="Pao API",
        version=__version__,
        lifespan=lifespan,
        docs_url="/api/docs" if public_docs else None,
        openapi_url="/api/openapi.json" if public_docs else None,
        redoc_url=None,
        form_limits=FORM_LIMITS,
        # Pao's signals are Prometheus' (pao.observability), not OpenTelemetry's: off, FastAPI's
        # own instrumentation skips the look for a configured tracer, meter and logger
        # provider that it made on every request (a fifth of the framework's per-request cost
        # in front of the middleware; docs/benchmarks.md, "the floor").
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.settings = settings
    app.state.lives_as_long_as_the_process = False  # see create_served_app
    app.state.engine = create_engine(settings)
    app.state.sessionmaker = create_sessionmaker(app.state.engine)
    app.state.read_sessionmaker = create_read_sessionmaker(app.state.engine)
    app.state.rate_limiter = create_rate_limiter(settings)
    # Tests point adapters at the in-process sandbox by setting an ASGI transport here.
    app.state.http_transport = None
    app.state.file_store = LocalFileStore(settings.data_dir / "uploads")
    # SCB's OAuth token, shared by the process's SCB calls (and by every process via Redis).
    app.state.scb_tokens = create_token_cache(settings)
    # Domains append their PeriodicJobs (payouts, reconcilers) here.
    app.state.jobs = []

    # Promotions' rules into the ports of the domains below it (the bonus gates of withdrawals
    # and transfers, the wallet screen's invite summary: pao.kit.ports). A port left unplugged
    # stops the start-up here rather than letting the first withdrawal past its gate.
    install_promotions()
    require_wired()

    # /healthz, /readyz and /metrics (pao.observability), before the SPA's catch-all route.
    observability.install_routes(app, settings)

    # Routes are matched in order, one by one (FastAPI tries each in about 3 µs), and no two
    # routers share a path, so the order is free: the hottest requests first, the member's
    # money paths, in small routers: the wallet's (GET /api/wallet, which every page load asks
    # for, and the withdrawal), the transfer, the slip upload. Behind the others' routes,
    # matching the wallet read was a tenth of its CPU and the transfer was matched 94th
    # (docs/benchmarks.md, ADR 0035). The aggregators' callbacks, the hottest of all, are
    # answered in front of the routing (the fast lane, below), so their routes go last.
    app.include_router(wallet_router)
    app.include_router(games_transfer_router)
    install_slips_and_payouts(app)
    promotions = (bonus_routes, promotion_code_routes, invite_routes, refund_routes, wheel_routes)
    for router in (
        identity_router,
        protection_router,
        site_router,
        *(m.router for m in promotions),
    ):
        app.include_router(router)
    # The contact page's LINE QR image (before the SPA's catch-all, which would answer it).
    app.include_router(line_qr_router)
    # Operator images (bonus banners): public, before the SPA's catch-all too.
    app.include_router(images_router)
    install_qr_payments(app)
    # Game accounts, transfers (saga + reconciler job) and auto-login.
    games_register(app)
    # The report summaries' background refresh (ADR 0015).
    reports_register(app)

    # The chat: its API routes and the socket.io server mounted at /socket.io; its agents are
    # the back office's staff.
    install_chat(app, settings, agents=chat_agents(settings))
    # The back office: staff login (password + TOTP), roles, audit, /api/backoffice/*.
    install_backoffice(app)
    # Matched by the router only for what the lane leaves to it (another method than POST).
    callbacks = register_seamless_callbacks(app)

    if settings.sandbox:
        from pao.sandbox.router import router as sandbox_router

        app.include_router(sandbox_router)

    document_common_errors(app)
    _mount_spa(app, settings.static_dir, lao_mode=settings.lao_mode)
    # Read from the routers as declared: walking FastAPI's route contexts would build every
    # route's request handling in every app (pao.core.route_table).
    app.state.declared_routes = declared_routes(app.routes)
    # The access log redacts the path parameters these routes name as secrets.
    register_secret_routes(route.path for route in app.state.declared_routes)

    # Middleware, innermost first (each one added wraps the ones before it), all inside
    # FastAPI's ServerErrorMiddleware. The termination check reads the database, so the outage
    # answer (installed with the error handlers) wraps it. The edge bounds and scans every
    # request before anything else runs, that read included (a 100 MB body or a NUL costs no
    # query); it is added after the routers because it resolves BODY_LIMITS and the path
    # parameters against them. The security headers wrap everything, so the edge's 413/422 and
    # the 410/503 answers carry them too. Innermost, the aggregators' callbacks, the wallet
    # read, the withdrawal, the transfer, the slip upload and a chat message are answered in
    # front of FastAPI's routing (pao.core.fast_lane), inside every guarantee above.
    lean = [*wallet_lean(), *games_lean(), *slips_lean(), *chat_lean()]
    app.add_middleware(FastLane, routes=callbacks, lean=lean)
    app.add_middleware(TerminationMiddleware)
    install_error_handlers(app)
    limits = {**BODY_LIMITS, **(SANDBOX_BODY_LIMITS if settings.sandbox else {})}
    install_edge(app, app.state.declared_routes, limits)
    app.add_middleware(SecurityHeadersMiddleware)
    # Request metrics and the shutdown drain wrap everything (pao.observability).
    observability.install_middleware(app)
    return app


def create_served_app() -> FastAPI:
    """The app of a ``pao serve`` process (uvicorn's factory): the one app the process will
    ever have, so what its start-up built may be frozen out of the collector's sight."""
    app = create_app()
    app.state.lives_as_long_as_the_process = True
    return app


class _SpaDocument:
    """The SPA's index.html, read and gzip-compressed once, when the app is built.

    Every history-mode route (``/login``, ``/user/home``, …) answers with this document, so
    compressing it per request would repeat the same work on each page load; the build does not
    change it while the process runs (a rebuild needs a restart to be served).
    """

    def __init__(self, path: Path, *, lao_mode: bool) -> None:
        # The operator's variant is written in when the app is built (pao.site.variant).
        self.plain = variant_document(path.read_bytes(), lao_mode=lao_mode)
        # mtime=0: the same bytes on every start and in every process behind a load balancer.
        self.gzipped = gzip.compress(self.plain, compresslevel=9, mtime=0)
        # Its inline script runs by hash: computed from these bytes, it matches the build.
        self.policy = document_policy(inline_script_hashes(self.plain))

    def response(self, accept_encoding: str) -> Response:
        """The document, gzipped when the client accepts it.

        ``no-cache``: the browser revalidates on every load, because the document names the
        hashed asset files of the current build. ``Vary``: a shared cache must not hand the
        gzipped body to a client that did not ask for it. "Accepts gzip" is the test Starlette's
        ``GZipMiddleware`` applies to ``/assets``, so both answer the same clients alike.
        """
        headers = {
            "Cache-Control": "no-cache",
            "Vary": "Accept-Encoding",
            "Content-Security-Policy": self.policy,
        }
        if "gzip" in accept_encoding:
            headers["Content-Encoding"] = "gzip"
            return Response(self.gzipped, media_type="text/html", headers=headers)
        return Response(self.plain, media_type="text/html", headers=headers)


class _SpaPath(Convertor[str]):
    """Any path outside ``/api/`` and ``/sandbox/``: those belong to the routers alone, so that
    the router's own matching answers there (405 ``METHOD_NOT_ALLOWED`` for a path it knows
    with another method, 404 ``NO_DATA`` for one it does not), never the SPA."""

    regex = r"(?!api/|sandbox/).*"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("pao_spa_path", _SpaPath())


# The last segment of a path that names a file ("media/howto/wallet.mp4", "x.png"); the app's
# own routes never end in an extension.
_FILE_NAME = re.compile(r"(?:^|/)[^/]*\.[A-Za-z0-9]{1,8}$")


def _names_a_file(path: str) -> bool:
    return _FILE_NAME.search(path) is not None


class _Spa:
    """The built SPA's files and its two documents, kept on ``app.state.spa``."""

    def __init__(self, static_dir: Path, index: Path, *, lao_mode: bool) -> None:
        self.document = _SpaDocument(index, lao_mode=lao_mode)
        back_office_html = static_dir / "backoffice.html"
        # The back office names the variant too: a Lao operator's staff read amounts in kip
        # (frontend/src/lib/member-currency.ts, variantCurrency) and Lao by default.
        self.back_office = (
            _SpaDocument(back_office_html, lao_mode=lao_mode)
            if back_office_html.is_file()
            else self.document
        )
        self.documents = {root_file.resolve() for root_file in (index, back_office_html)}
        self.static_dir = static_dir
        self.root = static_dir.resolve()

    def answer(self, path: str, accept_encoding: str) -> Response:
        candidate = (self.static_dir / path).resolve()
        # The documents themselves are served as documents too: same bytes, same no-cache.
        if (
            candidate not in self.documents
            and candidate.is_file()
            and candidate.is_relative_to(self.root)
        ):
            return FileResponse(candidate)
        if _names_a_file(path) and candidate not in self.documents:
            # A file that is not there (a demo video, an image) is a 404: the SPA document in
            # its place would play as a 0:00 video or a broken image, with no error to show.
            return JSONResponse({"message": "NO_DATA"}, status_code=status.HTTP_404_NOT_FOUND)
        if path in ("backoffice", "backoffice.html") or path.startswith("backoffice/"):
            return self.back_office.response(accept_encoding)
        return self.document.response(accept_encoding)


def _spa(path: str, request: Request) -> Response:  # sync: it touches the filesystem
    # Module-level, reading the app's state: FastAPI caches facts about each endpoint function
    # for the life of the process, so a closure here would keep every app built alive.
    spa: _Spa = request.app.state.spa
    return spa.answer(path, request.headers.get("accept-encoding", ""))


def _mount_spa(app: FastAPI, static_dir: Path, *, lao_mode: bool) -> None:
    """Serve the built SPA; unknown non-API paths fall back to index.html (history mode).

    ``/backoffice`` and everything under it fall back to ``backoffice.html`` instead: the back
    office is a second entry of the same build, loaded only by staff.
    """
    index = static_dir / "index.html"
    if not index.is_file():
        return
    app.state.spa = _Spa(static_dir, index, lao_mode=lao_mode)
    assets = static_dir / "assets"
    if assets.is_dir():
        # Compressed: on a phone over slow 4G the JS bytes decide when /login paints
        # (docs/benchmarks.md: LCP). Only the built assets and index.html; API answers stay
        # uncompressed.
        app.mount(
            "/assets",
            GZipMiddleware(StaticFiles(directory=assets), minimum_size=1024),
            name="assets",
        )
    # HEAD too: a load balancer or uptime probe asks HEAD /login and must not read 405.
    app.add_api_route(
        "/{path:pao_spa_path}", _spa, methods=["GET", "HEAD"], include_in_schema=False
    )
