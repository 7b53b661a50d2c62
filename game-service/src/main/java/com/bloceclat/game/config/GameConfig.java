package com.bloceclat.game.config;

import java.time.Duration;
import java.util.Optional;

import jakarta.validation.constraints.Min;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * game-service's own settings, one mapping per prefix ({@code bloc.outbox}, {@code bloc.ai}, {@code bloc.race},
 * {@code bloc.live}, {@code bloc.limits}, {@code bloc.ui}), so that the other {@code bloc.*} keys (the solver client's {@code bloc.solver.*}, the platform's
 * {@code bloc.component} marker) stay outside every mapping.
 */
public final class GameConfig {

    private GameConfig() {
    }

    @ConfigMapping(prefix = "bloc.outbox")
    public interface Outbox {
        /** How often the relay looks for unsent messages when nothing woke it (for example after Kafka was down). */
        @WithDefault("2s")
        Duration pollInterval();

        /** How long the relay waits for the broker to acknowledge a batch before trying again later. */
        @WithDefault("10s")
        Duration sendTimeout();

        @WithDefault("200")
        int batchSize();

        /**
         * The payload a batch may hold, in bytes (UTF-8), in all; a first row larger than that goes alone: a very long
         * game's {@code game-finished} is about 6 MB (docs/benchmarks.md "Outbox"), so {@link #batchSize} rows of them
         * would be more than a replica's heap.
         */
        @WithDefault("16000000")
        long batchBytes();

        /**
         * The longest wait before the next attempt of a message whose send failed (the first is {@code poll-interval},
         * doubled at each failure): a failing row steps aside, and the rows after it go meanwhile.
         */
        @WithDefault("30s")
        Duration retryMax();

        /**
         * How long the relay waits after a commit before its pass, so that the commits of that time share one pass;
         * live updates are that much later. Each pass is a transaction and a produce request, and every replica's live
         * consumer fetches what each produce brings: at 300 AI placements a second, 20 ms takes about six commits in
         * one pass where 5 ms took one or two (its CPU was not measured apart from other changes: docs/benchmarks.md
         * "AI opponents", 4 December).
         */
        @WithDefault("20ms")
        Duration linger();

        /**
         * How old the oldest unsent message may be before the wellness check {@code outbox} says DOWN (Kafka
         * unreachable or the relay stuck); operators alert on it. Not readiness: games go on while messages wait.
         */
        @WithDefault("60s")
        Duration lateAfter();

        /** How often each replica reads the outbox's backlog for that check and the {@code outbox.*} gauges. */
        @WithDefault("10s")
        Duration backlogInterval();
    }

    @ConfigMapping(prefix = "bloc.ai")
    public interface Ai {
        /** The AI's pace: at most one placement per this interval, so a person can watch it play. */
        @WithDefault("1s")
        Duration pace();

        /**
         * How often each replica claims the AI games due within the next interval that no replica holds (new
         * matches, games whose lease ran out). A claimed game's turns are then timed to its due time by the replica
         * holding it, not by this interval. The Quarkus scheduler looks at its triggers once a second: below 1s
         * it is not more often.
         */
        @WithDefault("1s")
        Duration poll();

        /**
         * How long a replica's claim on an AI game outlives its due time (and each renewal, at the start of a turn
         * and with each placement): a replica that dies leaves its games to the others after at most this long
         * past their due time. Longer than a turn can take (the solver client's attempts and retries), else a slow
         * turn may be asked again by another replica.
         */
        @WithDefault("15s")
        Duration lease();

        /** The AI turns asking solver-service at once on this replica, at start (then AIMD: {@code AiConcurrency}). */
        @WithDefault("8")
        int initialInFlight();

        /** The most AI turns asking solver-service at once on this replica. */
        @WithDefault("64")
        int maxInFlight();

        /** The most AI games one replica holds (plays turn after turn). */
        @WithDefault("5000")
        int maxGames();
    }

    @ConfigMapping(prefix = "bloc.race")
    public interface Race {
        /**
         * How often each replica marks the race games whose player has a socket open on it as still there, and
         * looks for players gone for longer than {@link #disconnectTimeout()}.
         */
        @WithDefault("5s")
        Duration heartbeat();

        /**
         * How long a race player may be gone (no open match socket on any replica, no move or request) before
         * their game is resigned for them. At least twice the heartbeat.
         */
        @WithDefault("60s")
        Duration disconnectTimeout();

        /**
         * How long a waiting player may go without asking for their ticket (the web UI asks every second) before
         * matchmaking passes over it: they closed the page. Asking again puts them back in line, in their place.
         */
        @WithDefault("10s")
        Duration ticketTimeout();
    }

    @ConfigMapping(prefix = "bloc.live")
    public interface Live {
        /** Frames a second a socket may send on average. */
        @WithDefault("10")
        double framesPerSecond();

        /** Frames a socket may send at once. */
        @WithDefault("20")
        int burst();

        /**
         * How long a frame may wait for its socket to take it (a client that stopped reading: the peer's window is
         * full). Past it the socket is closed, and the page reconnects; it never holds back other sockets' frames.
         */
        @WithDefault("5s")
        Duration sendTimeout();

        /**
         * How long a socket may go without a frame or a pong from its client before it is taken for gone: it no
         * longer keeps its race player there ({@code RaceHeartbeat}) and is closed. The server pings every socket
         * ({@code bloc.live.ping-every}, 10 s, {@code SocketPings}; a browser answers on its own), so an open
         * page is never silent; a phone asleep or a dropped network leaves the connection open on this side, with
         * nothing coming from it, until the kernel gives up (about a quarter of an hour). At least twice the ping.
         */
        @WithDefault("30s")
        Duration silentAfter();

        /**
         * How often the server pings each socket ({@code SocketPings}): a ping not taken within the send timeout closes
         * the socket, and a browser's pong to it keeps the socket from looking silent. Well under
         * {@code silent-after}.
         */
        @WithDefault("10s")
        Duration pingEvery();

        /**
         * Frames a socket may have refused one after the other for coming too fast before it is closed (1008): its
         * client ignores the 429 error frames. Each refusal costs the replica a little, and a frame that arrives
         * while the one before is handled waits in memory.
         */
        @WithDefault("50")
        int refusedBeforeClose();

        /**
         * Sockets one caller (a player's subject, a guest's game token) may have open to one match on one replica;
         * past it a new one is refused (429). Each socket costs a database read at open and on every update of the
         * other seat, so this bounds what one client can make a replica do. Per replica, not overall.
         */
        @WithDefault("4")
        int maxSocketsPerSeat();

        /**
         * Sockets one client ({@code ClientKey}: a player's subject, a guest's address) may have open on one replica,
         * whatever their matches; past it a new one is refused (429). A client may hold seats in any number of finished
         * matches (creating a match costs nothing once its games have ended), so the per-seat cap alone bounds
         * nothing. Per replica; guests behind one address share it.
         */
        @WithDefault("64")
        int maxSocketsPerClient();
    }

    /**
     * Bounded work: per game (every replay stays within what the leaderboard reads, every game-finished within what
     * the broker takes) and per client (what one guest may have open at once). docs/game-service.md "Limits".
     */
    @ConfigMapping(prefix = "bloc.limits")
    public interface Limits {
        /**
         * Events (placements, undos, hints) a game may have; past it moves, undos and hints are refused (409) and
         * the game can only be resigned. At most {@code GameFinished.MAX_REPLAY_EVENTS} (100,000), the bound
         * leaderboard-service reads replays with.
         */
        @WithDefault("100000")
        int eventsPerGame();

        /** Undos a solo game may have. */
        @WithDefault("1000")
        int undosPerGame();

        /** Hints a solo game may have (each one a solver search). */
        @WithDefault("1000")
        int hintsPerGame();

        /**
         * Hints one client ({@code ClientKey}) may have being worked out at once on one replica; past it a hint is
         * refused (429, Retry-After) before the solver is asked. Hints run in the services' share of solver-service,
         * and asks at once on one game each ran a search though only one could be recorded, so without this a guest
         * could fill that share. Per replica.
         */
        @WithDefault("2")
        int hintsInFlightPerClient();

        /**
         * Replays one client may have being built and written at once on one replica; past it a replay is refused
         * (429, Retry-After) before it is built. A long game's replay is megabytes, so a client asking for it many
         * times at once held that many copies. Per replica.
         */
        @WithDefault("2")
        int replaysInFlightPerClient();

        /**
         * Replays one client may ask for a minute, on average, in bursts of as many; past it 429. Anyone may read a
         * finished game's replay, and a long one not held by the replica is read from its events. Per replica.
         */
        @WithDefault("30")
        @Min(1)
        int replaysPerMinutePerClient();

        /** Versus-AI matches one client (a guest's address, a player's subject) may have open at once. */
        @WithDefault("3")
        int aiMatchesPerClient();

        /** Games being played (solo, or a seat of a match) one client may have open at once. */
        @WithDefault("10")
        int gamesPerClient();

        /**
         * How long a game counts as open without any move: a game left alone for longer no longer counts against
         * its client (a guest who closed the page cannot resign it).
         */
        @WithDefault("30m")
        Duration openFor();

        /**
         * Games one client may start within {@link #startsWindow}, however they end (a two-players match is two): the
         * open-games limit does not bound a loop that starts a game and resigns it, each leaving its rows, messages
         * and leaderboard audit for good.
         */
        @WithDefault("60")
        int startsPerClient();

        /** The window {@link #startsPerClient} counts in. */
        @WithDefault("1m")
        Duration startsWindow();
    }

    /**
     * How long games are kept once nobody changes them ({@code GameRetention}, docs/game-service.md "Retention"):
     * without it every game started stayed for good, its events, its match and its race tickets with it.
     */
    @ConfigMapping(prefix = "bloc.retention")
    public interface Retention {
        /**
         * A game nobody has changed for this long (finished or not) is deleted with its events; a match once every
         * game of it has gone unchanged for this long, with its games, race tickets and invitation.
         */
        @WithDefault("P90D")
        Duration games();

        /** How often each replica runs a pass. */
        @WithDefault("1h")
        Duration pruneEvery();

        /** Games (or matches, tickets, invitations) deleted per transaction. */
        @WithDefault("500")
        int batchSize();
    }

    /** What the browser is told at {@code GET /config.json}, and where UI files may come from in development. */
    @ConfigMapping(prefix = "bloc.ui")
    public interface Ui {
        /** solver-service as the browser reaches it (base URL, no path); defaults in application.properties. */
        String solverUrl();

        /** leaderboard-service as the browser reaches it. */
        String leaderboardUrl();

        /** Keycloak as the browser reaches it (the realm's URL is {@code <keycloakUrl>/realms/<realm>}). */
        String keycloakUrl();

        @WithDefault("bloc-eclat")
        String realm();

        /** The public OIDC client the browser signs in with. */
        @WithDefault("web-ui")
        String clientId();

        /**
         * A directory whose files are served ahead of the bundled web UI (UI development: rebuild
         * {@code web-ui/dist} and reload); unset in every deployment.
         */
        Optional<String> dir();
    }
}
