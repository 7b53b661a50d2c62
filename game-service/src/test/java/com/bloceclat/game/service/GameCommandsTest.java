package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Vetoed;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.NotFoundException;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.MatchEntity;
import com.bloceclat.game.OutboxMessage;
import com.bloceclat.game.Play;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.config.IntegrityConfig;
import com.bloceclat.game.messaging.GameMessages;
import com.bloceclat.game.service.Views.GameView;
import com.bloceclat.game.service.Views.MoveView;
import com.bloceclat.game.service.Views.Suggestion;

/**
 * The command layer (Creation, Moves, Undos, Hints, Resignations over GameLog) without a database: the log store is
 * kept in memory ({@link MemoryStore}), the messages are recorded instead of written to the outbox, and every
 * transaction commits at once (the cache is handed its state as a commit would). The same commands against
 * PostgreSQL and Kafka are GameResourceTest, MatchResourceTest, BoundedWorkTest and GameCacheIntegrationTest.
 */
class GameCommandsTest {

    /** Games, events and matches in memory; counts the event reads (a move on a cached game makes none). */
    static final class MemoryStore implements GameStore {
        final Map<UUID, GameEntity> games = new HashMap<>();
        final Map<UUID, List<GameEvent>> events = new HashMap<>();
        final Map<UUID, MatchEntity> matches = new HashMap<>();
        int eventReads;
        /** Each {@link #write}: its event's type ("-" for none) and its messages (Recorded's payloads). */
        final List<String> writes = new ArrayList<>();
        /** The events those reads answered, in all. */
        int eventsRead;
        /** The reads from a game's first event. */
        int readsFromStart;

        @Override
        public GameEntity locked(UUID id) {
            return copy(games.get(id));
        }

        @Override
        public GameEntity lockedIfOwned(UUID id, String subject, String guestTokenHash) {
            GameEntity g = games.get(id);
            boolean owned = g != null && (g.ownerSubject != null ? g.ownerSubject.equals(subject)
                    : g.guestTokenHash != null && g.guestTokenHash.equals(guestTokenHash));
            return owned ? copy(g) : null;
        }

        @Override
        public GameEntity read(UUID id) {
            return copy(games.get(id));
        }

        /** Runs as a game's events are read in full (from 0), before they are. */
        Runnable beforeFullRead = () -> {
        };

        @Override
        public List<GameEvent> events(GameEntity g, int from, int limit) {
            if (from == 0) {
                beforeFullRead.run();
                readsFromStart++;
            }
            eventReads++;
            List<GameEvent> all = events.getOrDefault(g.id, List.of());
            int start = Math.min(from, all.size());
            List<GameEvent> read = List.copyOf(all.subList(start, (int) Math.min(all.size(), (long) start + limit)));
            eventsRead += read.size();
            return read;
        }

        @Override
        public void insert(GameEntity g) {
            games.put(g.id, copy(g));
        }

        @Override
        public boolean hasDailyGame(String subject, LocalDate day, Level level) {
            return games.values().stream().anyMatch(g -> subject.equals(g.ownerSubject) && day.equals(g.dailyDay)
                    && g.seedSource == GameEntity.SeedSource.DAILY && g.level == level);
        }

        @Override
        public UUID countingDailyInPlay(String subject, LocalDate day, Level level) {
            return games.values().stream().filter(g -> subject.equals(g.ownerSubject) && day.equals(g.dailyDay)
                    && g.seedSource == GameEntity.SeedSource.DAILY && g.level == level && !g.finished()
                    && !g.dailyPractice).map(g -> g.id).findFirst().orElse(null);
        }

        @Override
        public void practiceDailiesInPlay(String subject, LocalDate day, Level level) {
            games.values().stream().filter(g -> subject.equals(g.ownerSubject) && day.equals(g.dailyDay)
                    && g.seedSource == GameEntity.SeedSource.DAILY && g.level == level && !g.finished())
                    .forEach(g -> g.dailyPractice = true);
        }

        /**
         * Appends the event, and writes the row's columns GameRows.write writes, and only those, as PostgreSQL would
         * (the messages are Recorded's).
         */
        @Override
        public void write(GameEvent e, GameEntity g, List<OutboxMessage.Outgoing> messages) {
            writes.add((e == null ? "-" : e.type) + " " + messages.stream().map(OutboxMessage.Outgoing::payload)
                    .toList());
            if (e != null) {
                List<GameEvent> log = events.computeIfAbsent(e.gameId, k -> new ArrayList<>());
                assertEquals(log.size(), e.seq, "events are numbered without gap or double");
                log.add(e);
            }
            GameEntity row = games.get(g.id);
            assertTrue(row != null, "a row inserted before");
            row.status = g.status;
            row.score = g.score;
            row.assisted = g.assisted;
            row.eventCount = g.eventCount;
            row.updatedAt = g.updatedAt;
            row.finishedAt = g.finishedAt;
            row.leftAt = g.leftAt;
        }

        @Override
        public List<GameEntity> seats(UUID matchId) {
            return games.values().stream().filter(g -> matchId.equals(g.matchId))
                    .sorted(Comparator.comparing(g -> g.seat)).map(MemoryStore::copy).toList();
        }

        /**
         * Rows are values, as DbGameStore's (games and matches alike): a change the commands do not write back
         * through update or updateMatch is lost, and those write back only the columns their SQL writes.
         */
        static <T> T copy(T row) {
            if (row == null) {
                return null;
            }
            try {
                @SuppressWarnings("unchecked")
                T c = (T) row.getClass().getDeclaredConstructor().newInstance();
                for (Field f : row.getClass().getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers())) {
                        f.set(c, f.get(row));
                    }
                }
                return c;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public MatchEntity match(UUID id) {
            return copy(matches.get(id));
        }

        @Override
        public MatchEntity lockedMatch(UUID id) {
            return copy(matches.get(id));
        }

        /** Writes the columns MatchRows.update writes, and only those. */
        @Override
        public void updateMatch(MatchEntity m) {
            MatchEntity row = matches.get(m.id);
            assertTrue(row != null, "a match stored before");
            row.status = m.status;
            row.targetScore = m.targetScore;
            row.winnerSeat = m.winnerSeat;
            row.result = m.result;
            row.finishedAt = m.finishedAt;
        }

        @Override
        public GameEntity lockedSeat(UUID matchId, int seat) {
            return seat(matchId, seat);
        }

        @Override
        public GameEntity lockedSeatIfFree(UUID matchId, int seat) {
            return seat(matchId, seat);
        }

        @Override
        public GameEntity seat(UUID matchId, int seat) {
            return games.values().stream().filter(g -> matchId.equals(g.matchId) && g.seat == seat).findFirst()
                    .map(MemoryStore::copy).orElse(null);
        }

        @Override
        public void seen(UUID gameId) {
        }
    }

    /**
     * The messages a change wrote, as "TYPE status" (changed) and "FINISHED status" (finished). Vetoed: it would
     * inherit GameMessages' scope and be a second bean of that type in the Quarkus tests of this module.
     */
    @Vetoed
    static final class Recorded extends GameMessages {
        final List<String> written = new ArrayList<>();

        @Override
        public void created(GameEntity g, Game game) {
            written.add("CREATED " + g.status);
        }

        @Override
        public void changed(GameEntity g, Game game, GameEvent event, List<OutboxMessage.Outgoing> into) {
            record(event.type + " " + g.status, into);
        }

        @Override
        public void finished(GameEntity g, Game game, List<OutboxMessage.Outgoing> into) {
            record("FINISHED " + g.status, into);
        }

        /** Recorded, and handed to the store's write as a message with the record as its value. */
        private void record(String message, List<OutboxMessage.Outgoing> into) {
            written.add(message);
            into.add(new OutboxMessage.Outgoing("recorded", "key", message, null));
        }
    }

    /** A CDI event whose observers are called at once (the transaction commits at once). */
    static <T> Event<T> event(Consumer<T> observer) {
        return new Event<>() {
            @Override
            public void fire(T event) {
                observer.accept(event);
            }

            @Override
            public <U extends T> CompletionStage<U> fireAsync(U event) {
                throw new UnsupportedOperationException();
            }

            @Override
            public <U extends T> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Event<T> select(Annotation... qualifiers) {
                throw new UnsupportedOperationException();
            }

            @Override
            public <U extends T> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
                throw new UnsupportedOperationException();
            }

            @Override
            public <U extends T> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
                throw new UnsupportedOperationException();
            }
        };
    }

    static GameConfig.Limits limits(int events, int undos, int hints) {
        return (GameConfig.Limits) Proxy.newProxyInstance(GameConfig.Limits.class.getClassLoader(),
                new Class<?>[] {GameConfig.Limits.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "eventsPerGame" -> events;
                    case "undosPerGame" -> undos;
                    case "hintsPerGame" -> hints;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    final MemoryStore store = new MemoryStore();
    final Recorded messages = new Recorded();
    final List<GameChanged> changes = new ArrayList<>();
    final GameLog log = new GameLog();
    final GameViews views = new GameViews();
    final Creation creation = new Creation();
    final Moves moves = new Moves();
    final Undos undos = new Undos();
    final Hints hints = new Hints();
    final Resignations resignations = new Resignations();
    final MatchJudge judge = new MatchJudge();
    final AiTurns ai = new AiTurns();

    /** No JTA transaction here: each command commits at once (see the class comment). */
    static final TransactionSynchronizationRegistry NO_TRANSACTION = (TransactionSynchronizationRegistry) Proxy
            .newProxyInstance(GameCommandsTest.class.getClassLoader(),
                    new Class<?>[] {TransactionSynchronizationRegistry.class}, (proxy, method, args) -> null);

    static Appends outsideATransaction() {
        Appends appends = new Appends();
        appends.transaction = NO_TRANSACTION;
        return appends;
    }

    GameCommandsTest() {
        GameCache cache = new GameCache(100, 10_000, Duration.ofMinutes(10), () -> 0L, true);
        log.store = store;
        log.cache = cache;
        log.messages = messages;
        log.changes = event(c -> {
            changes.add(c);
            judge.judge(c);
        });
        judge.log = log;
        judge.store = store;
        log.committed = event(cache::store);
        log.appends = outsideATransaction();
        DailyChallenge daily = new DailyChallenge((IntegrityConfig.Daily) () -> "a test secret of the day",
                Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC));
        views.log = log;
        views.store = store;
        views.daily = daily;
        creation.log = log;
        creation.views = views;
        creation.daily = daily;
        creation.store = store;
        moves.log = log;
        moves.store = store;
        moves.views = views;
        undos.log = log;
        undos.store = store;
        undos.views = views;
        hints.log = log;
        hints.store = store;
        hints.views = views;
        resignations.log = log;
        resignations.store = store;
        resignations.views = views;
        ai.log = log;
        ai.store = store;
        ai.moves = moves;
        ai.resignations = resignations;
        limit(limits(1000, 2, 1));
    }

    /** Sets the caps per game (bloc.limits): events, undos, hints. */
    GameCommandsTest limit(GameConfig.Limits limits) {
        moves.limits = limits;
        views.limits = limits;
        undos.limits = limits;
        hints.limits = limits;
        ai.limits = limits;
        return this;
    }

    static final Requester ANN = new Requester("ann", "Ann", null);

    GameView solo(long seed) {
        return creation.solo(new GameService.NewGame(Level.MEDIUM, seed, false), ANN);
    }

    /** Every legal placement of the pieces still to place, by slot, then row, then column: {slot, row, col}. */
    static List<int[]> legalPlacements(Game g) {
        Piece[] remaining = g.remaining();
        List<int[]> legal = new ArrayList<>();
        for (int s = 0; s < remaining.length; s++) {
            for (int r = 0; remaining[s] != null && r < 9; r++) {
                for (int col = 0; col < 9; col++) {
                    if (Rules.illegalReason(g.board(), remaining[s], r, col) == null) {
                        legal.add(new int[] {s, r, col});
                    }
                }
            }
        }
        return legal;
    }

    /**
     * One placement of {@code game} as the AI driver makes one (its row locked, on the cached state), the one
     * {@code choose} picks from that state; the state, now after it.
     */
    Rebuilt placeLocked(UUID game, Function<Game, int[]> choose) {
        GameEntity g = store.locked(game);
        Rebuilt r = log.current(g);
        int[] p = choose.apply(r.game);
        moves.placed(g, r, r.lastMoveNumber() + 1, p[0], p[1], p[2]);
        return r;
    }

    /** The first legal placement of the pieces still to place: slot, row, col; null when none fits. */
    static int[] firstLegal(Game g) {
        List<int[]> legal = legalPlacements(g);
        return legal.isEmpty() ? null : legal.get(0);
    }

    /** The last legal placement (the last slot's, from the bottom right): slot, row, col; null when none fits. */
    static int[] lastLegal(Game g) {
        List<int[]> legal = legalPlacements(g);
        return legal.isEmpty() ? null : legal.get(legal.size() - 1);
    }

    /** The game as the player sees it, rebuilt from the store's events (what a fresh replica would answer). */
    Game replayed(UUID id) {
        return GameLog.replayed(store.games.get(id), store.events.getOrDefault(id, List.of())).game;
    }

    MoveView playNext(UUID id, int moveNumber) {
        int[] m = firstLegal(replayed(id));
        return moves.move(id, ANN, moveNumber, m[0], m[1], m[2]);
    }

    static int status(ClientErrorException e) {
        return e.getResponse().getStatus();
    }

    @Test
    void aMoveIsAppendedAsTheGamesNextEventAndAnnouncedAfterItsObservers() {
        GameView created = solo(7);
        assertEquals(List.of("CREATED PLAYING"), messages.written);
        MoveView moved = playNext(created.id(), 1);

        GameEntity row = store.games.get(created.id());
        assertEquals(1, row.eventCount);
        assertEquals(1, moved.game().version());
        assertEquals(2, moved.game().nextMoveNumber());
        assertEquals(replayed(created.id()).score(), row.score);
        assertEquals(List.of("CREATED PLAYING", "PLACE PLAYING"), messages.written);
        // the event, its message and the row in one write (one statement, one round trip to PostgreSQL)
        assertEquals(List.of("PLACE [PLACE PLAYING]"), store.writes);
        assertEquals(1, changes.size());
        assertEquals(GameEvent.Type.PLACE, changes.get(0).event().type);
        assertEquals(0, changes.get(0).event().seq);
    }

    /** The command layer of another replica on the same store: its own log and cache. */
    Moves otherReplica() {
        GameCache cache = new GameCache(100, 10_000, Duration.ofMinutes(10), () -> 0L, true);
        GameLog other = new GameLog();
        other.store = store;
        other.cache = cache;
        other.messages = messages;
        other.changes = event(judge::judge);
        other.committed = event(cache::store);
        other.appends = outsideATransaction();
        Moves m = new Moves();
        m.log = other;
        m.store = store;
        m.views = views;
        m.limits = moves.limits;
        return m;
    }

    @Test
    void aGameAnotherReplicaMovedOnIsCaughtUpFromTheEventsThisOneLacks() {
        UUID id = solo(9).id();
        playNext(id, 1);
        playNext(id, 2);
        // another replica plays moves 3 to 5: this replica's cached state (after 2 events) is now stale
        Moves other = otherReplica();
        for (int n = 3; n <= 5; n++) {
            int[] m = firstLegal(replayed(id));
            other.move(id, ANN, n, m[0], m[1], m[2]);
        }
        int read = store.eventsRead;
        Rebuilt caughtUp = log.current(store.read(id));
        assertEquals(3, store.eventsRead - read, "only the three events this replica lacked are read");
        assertEquals(5, caughtUp.eventCount);
        Game full = replayed(id);
        assertEquals(full.replay().toJson(), caughtUp.game.replay().toJson());
        assertEquals(5, caughtUp.lastMoveNumber());
        // and it is cached at the row's count: the next move here reads nothing
        int reads = store.eventReads;
        int[] m = firstLegal(full);
        moves.move(id, ANN, 6, m[0], m[1], m[2]);
        assertEquals(reads, store.eventReads);
        assertEquals(full.placements() + 1, replayed(id).placements());
    }

    /**
     * Reads at once of a long game that has left the cache read its events once: the others wait for that read and
     * find it cached. Each read them all before, so that a client's few reads of its long game at once made the
     * replica read it that many times over (an attacker's review).
     */
    @Test
    void readsAtOnceOfALongGameReadItsEventsOnce() throws Exception {
        UUID id = solo(11).id();
        for (int n = 1; n <= 4; n++) {
            playNext(id, n);
        }
        log.readAloneFrom = 3;
        log.cache.clear();
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger fullReads = new AtomicInteger();
        store.beforeFullRead = () -> {
            fullReads.incrementAndGet();
            reading.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        List<Rebuilt> read = new CopyOnWriteArrayList<>();
        Thread first = new Thread(() -> read.add(log.current(store.read(id))));
        first.start();
        assertTrue(reading.await(10, TimeUnit.SECONDS));
        Thread second = new Thread(() -> read.add(log.current(store.read(id))));
        second.start();
        // the second read waits for the first (blocked on its monitor), or reads the events too
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (second.getState() != Thread.State.BLOCKED && fullReads.get() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        release.countDown();
        first.join(10_000);
        second.join(10_000);
        assertEquals(1, fullReads.get(), "the game's events read in full once");
        assertEquals(2, read.size());
        read.forEach(r -> assertEquals(4, r.eventCount));
        // a game shorter than that is read by each request, as before: no wait for a read of a few events
        store.beforeFullRead = fullReads::incrementAndGet;
        log.readAloneFrom = 1000;
        log.cache.clear();
        log.current(store.read(id));
        assertEquals(2, fullReads.get());
    }

    @Test
    void aRowReadBeforeAnotherReplicasMoveIsAnsweredAtItsOwnCount() {
        // a match's view reads the other seat's row without its lock, then its state, to decide what to hold back
        // and to show it: a move committed between the row and its events must not show a later round than decided
        UUID id = solo(11).id();
        Moves other = otherReplica();
        int[] first = firstLegal(replayed(id));
        other.move(id, ANN, 1, first[0], first[1], first[2]);
        GameEntity row = store.read(id);
        Game atRow = replayed(id);
        int[] m = firstLegal(atRow);
        other.move(id, ANN, 2, m[0], m[1], m[2]);

        Rebuilt shown = log.current(row);
        assertEquals(1, shown.eventCount);
        assertEquals(atRow.replay().toJson(), shown.game.replay().toJson());
        assertEquals(atRow.replay().toJson(), log.current(row).game.replay().toJson(), "and again: the same state");
    }

    @Test
    void aMoveOnAReplicaBehindReadsOnlyTheEventsItLacks() {
        UUID id = solo(10).id();
        playNext(id, 1);
        Moves other = otherReplica();
        int[] p = firstLegal(replayed(id));
        other.move(id, ANN, 2, p[0], p[1], p[2]);
        int read = store.eventsRead;
        MoveView moved = playNext(id, 3);
        assertEquals(1, store.eventsRead - read, "move 2, made by the other replica, is the one event read");
        assertEquals(3, moved.game().version());
        assertEquals(replayed(id).score(), store.games.get(id).score);
        // move 2 sent again here is answered from the state caught up with it, not played twice
        MoveView again = moves.move(id, ANN, 2, p[0], p[1], p[2]);
        assertTrue(again.repeated());
        assertEquals(3, store.events.get(id).size());
    }

    @Test
    void theNextMoveOfACachedGameReadsNoEvents() {
        UUID id = solo(8).id();
        playNext(id, 1);
        int reads = store.eventReads;
        Game before = replayed(id);
        int[] m = firstLegal(before);
        store.eventReads = reads;
        moves.move(id, ANN, 2, m[0], m[1], m[2]);
        assertEquals(reads, store.eventReads, "the cached state after move 1 was used");
        assertEquals(2, store.events.get(id).size());
    }

    @Test
    void aMoveSentAgainIsAnsweredAgainAndNeverAppliedTwice() {
        UUID id = solo(9).id();
        int[] m = firstLegal(replayed(id));
        MoveView first = moves.move(id, ANN, 1, m[0], m[1], m[2]);
        MoveView again = moves.move(id, ANN, 1, m[0], m[1], m[2]);
        assertFalse(first.repeated());
        assertTrue(again.repeated());
        assertEquals(first.move().points(), again.move().points());
        assertEquals(1, store.events.get(id).size());

        ClientErrorException other = assertThrows(ClientErrorException.class,
                () -> moves.move(id, ANN, 1, m[0], m[1] == 0 ? 1 : 0, m[2]));
        assertEquals(409, status(other));
        assertTrue(other.getMessage().contains("already played"), other.getMessage());
        ClientErrorException skipped = assertThrows(ClientErrorException.class, () -> playNext(id, 3));
        assertTrue(skipped.getMessage().contains("the next move number is 2"), skipped.getMessage());
        assertEquals(1, store.events.get(id).size());
    }

    @Test
    void anOlderMoveSentAgainAnswersThatMoveAndTheGameAsItIsNow() {
        // the game in the answer was the one after the repeated move, labelled with today's version: its
        // nextMoveNumber pointed at a move already played
        UUID id = solo(11).id();
        int[] m = firstLegal(replayed(id));
        MoveView first = moves.move(id, ANN, 1, m[0], m[1], m[2]);
        MoveView second = playNext(id, 2);
        MoveView again = moves.move(id, ANN, 1, m[0], m[1], m[2]);
        assertTrue(again.repeated());
        assertEquals(first.move().piece(), again.move().piece());
        assertEquals(first.move().points(), again.move().points());
        assertEquals(3, again.game().nextMoveNumber());
        assertEquals(second.game().board(), again.game().board());
        assertEquals(second.game().version(), again.game().version());
        assertEquals(2, store.events.get(id).size());
    }

    @Test
    void aMoveOlderThanTheLastThreeSentAgainIsRefusedWithoutReadingTheGame() {
        // before, it was answered by reading every event of the game and replaying it up to that move, under the
        // game's row lock: one request, one game's events (up to 100,000)
        UUID id = solo(12).id();
        int[] first = firstLegal(replayed(id));
        moves.move(id, ANN, 1, first[0], first[1], first[2]);
        for (int n = 2; n <= 4; n++) {
            playNext(id, n);
        }
        int reads = store.eventReads;
        ClientErrorException old = assertThrows(ClientErrorException.class,
                () -> moves.move(id, ANN, 1, first[0], first[1], first[2]));
        assertEquals(409, status(old));
        assertEquals("Move 1 was played before the last 3 placements; the next move number is 5: read the game for "
                + "its state.", old.getMessage());
        assertEquals(reads, store.eventReads, "no event read");
        assertEquals(4, store.events.get(id).size());
        // the last three are still answered again, from the state
        assertTrue(moves.move(id, ANN, 2, store.events.get(id).get(1).slot, store.events.get(id).get(1).row,
                store.events.get(id).get(1).col).repeated());
        assertEquals(reads, store.eventReads, "no event read");
    }

    @Test
    void onlyItsOwnerChangesAGame() {
        UUID id = solo(10).id();
        assertThrows(ForbiddenException.class, () -> moves.move(id, new Requester("bob", "Bob", null), 1, 0, 0, 0));
        assertThrows(ForbiddenException.class, () -> moves.move(id, new Requester(null, null, "a guess"), 1, 0, 0, 0));
        assertThrows(NotFoundException.class, () -> moves.move(UUID.randomUUID(), ANN, 1, 0, 0, 0));
        GameView guests = creation.solo(new GameService.NewGame(Level.EASY, 3L, false), new Requester(null, null,
                null));
        assertNotNull(guests.gameToken());
        int[] m = firstLegal(replayed(guests.id()));
        moves.move(guests.id(), new Requester(null, null, guests.gameToken()), 1, m[0], m[1], m[2]);
        assertTrue(store.events.values().stream().mapToInt(List::size).sum() == 1);
    }

    @Test
    void undoTakesBackOnlyTheLastMoveOfTheRoundAndAtMostItsCap() {
        UUID id = solo(11).id();
        playNext(id, 1);
        Views.Happened second = playNext(id, 2).move();
        ClientErrorException notLast = assertThrows(ClientErrorException.class, () -> undos.undo(id, ANN, 1));
        assertTrue(notLast.getMessage().contains("move 2"), notLast.getMessage());
        GameView undone = undos.undo(id, ANN, 2);
        assertTrue(undone.assisted());
        assertEquals(1, undone.undoMoveNumber());
        assertEquals(undone, undos.undo(id, ANN, 2), "an undo sent again changes nothing");
        // move 2 sent again once undone: refused, not answered as repeated with a piece no longer on its board
        ClientErrorException gone = assertThrows(ClientErrorException.class,
                () -> moves.move(id, ANN, 2, second.slot(), second.row(), second.col()));
        assertEquals("Move 2 was undone; the next move number is 3.", gone.getMessage());
        undos.undo(id, ANN, 1);
        // both undos used: none is offered any more (it was, and then refused)
        assertNull(playNext(id, 3).game().undoMoveNumber());
        ClientErrorException cap = assertThrows(ClientErrorException.class, () -> undos.undo(id, ANN, 3));
        assertTrue(cap.getMessage().contains("2 undos"), cap.getMessage());
        assertEquals(5, store.events.get(id).size());
    }

    @Test
    void aHintIsRecordedOnlyOnThePositionItWasAskedAboutAndUnderItsCap() {
        UUID id = solo(12).id();
        Hints.Asked one = hints.ask(id, ANN);
        Hints.Asked two = hints.ask(id, ANN);
        List<Suggestion> said = List.of(new Suggestion(0, 0, 0));
        assertTrue(hints.record(id, ANN, one, said).game().assisted());
        // asked at cap - 1 at the same time as the first: refused under the row lock, never a second hint
        ClientErrorException again = assertThrows(ClientErrorException.class, () -> hints.record(id, ANN, two, said));
        assertEquals(409, status(again));
        assertEquals(1, store.events.get(id).stream().filter(e -> e.type == GameEvent.Type.HINT).count());
        ClientErrorException cap = assertThrows(ClientErrorException.class, () -> hints.ask(id, ANN));
        assertTrue(cap.getMessage().contains("1 hints"), cap.getMessage());
    }

    /**
     * Hints and undos of a game this replica holds read none of its events: before, each one read them all (a hint
     * unlocked, so asks at once on a game of 100,000 events each held every event in memory), and a game at its cap
     * of events read them all before the 409.
     */
    @Test
    void hintsAndUndosOfACachedGameReadNoEventsAndAGameAtItsCapIsRefusedFirst() {
        UUID id = solo(15).id();
        playNext(id, 1);
        playNext(id, 2);
        int reads = store.eventReads;
        Hints.Asked asked = hints.ask(id, ANN);
        hints.record(id, ANN, asked, List.of(new Suggestion(0, 0, 0)));
        assertEquals(1, undos.undo(id, ANN, 2).undoMoveNumber());
        assertEquals(1, undos.undo(id, ANN, 2).undoMoveNumber(), "a repeated undo answers the state again");
        assertEquals(409, status(assertThrows(ClientErrorException.class, () -> undos.undo(id, ANN, 3))));
        assertEquals(reads, store.eventReads, "no event read: the cached state knows the hints, undos and moves");
        // the counts a state rebuilt from the events has are the cached one's
        GameCommandsTest other = new GameCommandsTest().limit(limits(100, 2, 1));
        other.store.games.putAll(store.games);
        other.store.events.putAll(store.events);
        assertTrue(assertThrows(ClientErrorException.class, () -> other.hints.ask(id, ANN)).getMessage()
                .contains("1 hints"));
        other.undos.undo(id, ANN, 1);
        assertTrue(assertThrows(ClientErrorException.class, () -> other.undos.undo(id, ANN, 3))
                .getMessage().contains("There is no move 3"));

        GameCommandsTest capped = new GameCommandsTest().limit(limits(2, 5, 5));
        UUID full = capped.solo(16).id();
        capped.playNext(full, 1);
        capped.playNext(full, 2);
        int before = capped.store.eventReads;
        ClientErrorException cap = assertThrows(ClientErrorException.class, () -> capped.hints.ask(full, ANN));
        assertTrue(cap.getMessage().contains("cap of 2 events"), cap.getMessage());
        assertEquals(before, capped.store.eventReads, "refused at the cap before the events are read");
    }

    /** The last placement sent again, and a move number ahead, are answered without reading the game's events. */
    @Test
    void theLastMoveSentAgainAndAMoveNumberAheadReadNoEvents() {
        UUID id = solo(17).id();
        playNext(id, 1);
        int[] m = firstLegal(replayed(id));
        MoveView second = moves.move(id, ANN, 2, m[0], m[1], m[2]);
        int reads = store.eventReads;
        MoveView again = moves.move(id, ANN, 2, m[0], m[1], m[2]);
        assertTrue(again.repeated());
        assertEquals(second.move().piece(), again.move().piece());
        assertEquals(second.move().points(), again.move().points());
        assertEquals(second.move().placed().stream().map(java.util.Arrays::toString).toList(),
                again.move().placed().stream().map(java.util.Arrays::toString).toList());
        assertTrue(assertThrows(ClientErrorException.class, () -> moves.move(id, ANN, 2, m[0], m[1] == 0 ? 1 : 0,
                m[2])).getMessage().contains("already played"));
        assertTrue(assertThrows(ClientErrorException.class, () -> playNext(id, 9)).getMessage()
                .contains("out of order"));
        assertTrue(assertThrows(ClientErrorException.class, () -> playNext(id, 0)).getMessage()
                .contains("out of order"));
        assertEquals(reads, store.eventReads, "no event read");
        assertEquals(2, store.events.get(id).size());
    }

    @Test
    void aGameEndsOnceAndItsResultIsWrittenOnce() {
        UUID id = solo(13).id();
        GameView v = resignations.resign(id, ANN);
        assertEquals("RESIGNED", v.status());
        assertEquals(List.of("CREATED PLAYING", "FINISHED RESIGNED", "RESIGN RESIGNED"), messages.written);
        assertEquals(List.of("RESIGN [FINISHED RESIGNED, RESIGN RESIGNED]"), store.writes, "ended in the event's write");
        assertEquals(409, status(assertThrows(ClientErrorException.class, () -> resignations.resign(id, ANN))));
        assertEquals(409, status(assertThrows(ClientErrorException.class, () -> playNext(id, 1))));
        assertNotNull(store.games.get(id).finishedAt);
    }

    /**
     * Only a player's first daily game of a day and level counts: before, a first attempt made with a hint (or an
     * undo) did not count, so a second one, played with the pieces that hint had scouted, took the daily board.
     */
    @Test
    void aPlayersSecondDailyGameOfADayAndLevelIsPracticeHowTheFirstWasPlayed() {
        GameService.NewGame daily = new GameService.NewGame(Level.HARD, null, true);
        GameView first = creation.solo(daily, ANN);
        assertEquals(false, first.practice());
        playNext(first.id(), 1);
        assertTrue(undos.undo(first.id(), ANN, 1).assisted(), "the first attempt assisted: it cannot count");
        resignations.resign(first.id(), ANN);
        GameView second = creation.solo(daily, ANN);
        assertEquals(true, second.practice());
        assertTrue(store.games.get(second.id()).dailyPractice, "stored with the game");
        assertEquals(true, creation.solo(daily, ANN).practice(), "and every later one");
        // another level, another player, a guest, a game not daily: none is practice (a guest's never counts anyway)
        assertEquals(false, creation.solo(new GameService.NewGame(Level.EXPERT, null, true), ANN).practice());
        assertEquals(false, creation.solo(daily, new Requester("bob", "Bob", null)).practice());
        Requester guest = new Requester(null, null, "a-guest-token");
        creation.solo(daily, guest);
        assertEquals(false, creation.solo(daily, guest).practice());
        assertNull(creation.solo(new GameService.NewGame(Level.HARD, null, false), ANN).practice());
    }

    /**
     * A daily game still in play when its player starts another of the same day and level stops counting: else the
     * second (practice) could be played first, with hints and undos, to learn the rounds, and the first then played
     * knowing them and counted. A start that does not ask for practice (a retry, a stale page) is refused instead,
     * so that it does not take the count away unasked. One that ended before the other began still counts.
     */
    @Test
    void aDailyGameInPlayWhenItsPlayerStartsAnotherOfTheLevelIsPracticeFromThen() {
        GameService.NewGame daily = new GameService.NewGame(Level.EXPERT, null, true);
        GameView first = creation.solo(daily, ANN);
        playNext(first.id(), 1);
        ClientErrorException inPlay = assertThrows(ClientErrorException.class, () -> creation.solo(daily, ANN));
        assertEquals(409, status(inPlay));
        assertTrue(inPlay.getMessage().contains(first.id().toString()), inPlay.getMessage());
        assertFalse(store.games.get(first.id()).dailyPractice, "still counts");
        GameView scout = creation.solo(new GameService.NewGame(Level.EXPERT, null, true, true), ANN);
        assertEquals(true, scout.practice());
        assertTrue(store.games.get(first.id()).dailyPractice, "the first, still in play, no longer counts");
        assertEquals(true, creation.solo(daily, ANN).practice(), "none counts in play now: a later one is made");
        assertEquals(400, status(assertThrows(ClientErrorException.class,
                () -> creation.solo(new GameService.NewGame(Level.EXPERT, null, false, true), ANN))));
        // another level's daily game, ended before its second began, still counts
        GameService.NewGame medium = new GameService.NewGame(Level.MEDIUM, null, true);
        GameView ended = creation.solo(medium, ANN);
        playNext(ended.id(), 1);
        resignations.resign(ended.id(), ANN);
        assertEquals(true, creation.solo(medium, ANN).practice());
        assertFalse(store.games.get(ended.id()).dailyPractice);
    }

    @Test
    void aGamePlayedToItsEndIsOverWithOneResult() {
        UUID id = creation.solo(new GameService.NewGame(Level.HARD, 5L, false), ANN).id();
        MoveView last = null;
        for (int n = 1; last == null || !last.move().gameOver(); n++) {
            last = playNext(id, n);
        }
        assertEquals("OVER", last.game().status());
        assertEquals(1, messages.written.stream().filter(w -> w.startsWith("FINISHED")).count());
        assertEquals("FINISHED OVER", messages.written.get(messages.written.size() - 2));
        assertEquals(409, status(assertThrows(ClientErrorException.class,
                () -> moves.move(id, ANN, store.events.get(id).size() + 1, 0, 0, 0))));
    }

    @Test
    void theSecondOfTwoPlayersWaitsForTheFirstAndAFinishedMatchTakesNoMove() {
        MatchEntity m = new MatchEntity();
        m.id = UUID.randomUUID();
        m.mode = GameEntity.Mode.TWO_PLAYERS;
        m.status = MatchEntity.Status.PLAYING;
        store.matches.put(m.id, m);
        creation.ofMatch(m.mode, Level.MEDIUM, 21, ANN, null, m.id, 0);
        GameEntity second = creation.ofMatch(m.mode, Level.MEDIUM, 21, ANN, null, m.id, 1);
        ClientErrorException wait = assertThrows(ClientErrorException.class, () -> playNext(second.id, 1));
        assertTrue(wait.getMessage().contains("Player 2 plays once"), wait.getMessage());
        m.status = MatchEntity.Status.FINISHED;
        m.result = "seat 0 wins";
        store.matches.put(m.id, m);
        assertThrows(ClientErrorException.class, () -> playNext(store.seat(m.id, 0).id, 1));
        assertTrue(store.events.isEmpty());
    }

    @Test
    void aGameAtItsCapOfEventsTakesNoMoveButCanBeResigned() {
        GameCommandsTest capped = new GameCommandsTest().limit(limits(2, 5, 5));
        UUID id = capped.solo(14).id();
        capped.playNext(id, 1);
        capped.playNext(id, 2);
        ClientErrorException cap = assertThrows(ClientErrorException.class, () -> capped.playNext(id, 3));
        assertTrue(cap.getMessage().contains("cap of 2 events"), cap.getMessage());
        assertEquals("RESIGNED", capped.resignations.resign(id, ANN).status());
    }

    @Test
    void anAiGameAtItsCapOfEventsIsResignedNotAskedAbout() {
        // the AI plays on behind a score to beat until it dies: on EASY it may never, so the cap must stop it
        GameCommandsTest capped = new GameCommandsTest().limit(limits(3, 5, 5));
        MatchEntity m = new MatchEntity();
        UUID[] seats = capped.aiMatch(m);
        for (int n = 1; n <= 3; n++) {
            capped.playNext(seats[0], n);
        }
        for (int n = 1; n <= 3; n++) {
            assertTrue(capped.ai.question(seats[1]) != null, "the AI's placement " + n + " is asked for");
            capped.placeLocked(seats[1], GameCommandsTest::firstLegal);
        }
        assertEquals(null, capped.ai.question(seats[1]), "at the cap: nothing more to ask");
        GameEntity its = capped.store.games.get(seats[1]);
        assertEquals(GameEntity.Status.RESIGNED, its.status);
        assertEquals(its.score, capped.store.matches.get(m.id).targetScore, "its score is the one to beat");
        assertEquals(null, capped.ai.question(seats[1]));
    }

    /**
     * A versus-AI match on MEDIUM seed 4: its person's and its AI's games ({person, ai}). On that seed the first legal
     * placements reach 47 points in 10 moves; the last legal ones end at 40 in 11.
     */
    UUID[] aiMatch(MatchEntity m) {
        return aiMatch(m, 4);
    }

    /** A versus-AI match on MEDIUM {@code seed}. */
    UUID[] aiMatch(MatchEntity m, long seed) {
        m.id = UUID.randomUUID();
        m.mode = GameEntity.Mode.VERSUS_AI;
        m.level = Level.MEDIUM;
        m.strength = 5;
        m.status = MatchEntity.Status.PLAYING;
        store.matches.put(m.id, m);
        return new UUID[] {creation.ofMatch(m.mode, Level.MEDIUM, seed, ANN, null, m.id, 0).id,
                creation.ofMatch(m.mode, Level.MEDIUM, seed, null, null, m.id, MatchService.AI_SEAT).id};
    }

    /** The AI's game played to its end, each placement the last legal one, as AiTurns plays one. */
    void playAiToItsEnd(UUID ai) {
        while (store.games.get(ai).status == GameEntity.Status.PLAYING) {
            placeLocked(ai, GameCommandsTest::lastLegal);
        }
    }

    @Test
    void anAiEndingBehindItsPersonEndsTheMatchAndThePersonsGameAsWon() {
        MatchEntity m = new MatchEntity();
        UUID[] seats = aiMatch(m);
        UUID person = seats[0];
        UUID ai = seats[1];
        for (int n = 1; n <= 10; n++) {
            playNext(person, n);
        }
        int personScore = store.games.get(person).score;
        assertEquals(47, personScore);
        playAiToItsEnd(ai);
        GameEntity mine = store.games.get(person);
        GameEntity its = store.games.get(ai);
        assertEquals(GameEntity.Status.OVER, its.status);
        assertEquals(40, its.score);
        MatchEntity decided = store.matches.get(m.id); // as written back (MatchJudge: store.updateMatch)
        assertEquals(MatchEntity.Status.FINISHED, decided.status);
        assertEquals(0, decided.winnerSeat);
        assertEquals(40, decided.targetScore);
        assertEquals(GameEntity.Status.WON, mine.status, "the person's game has won and ends with the match");
        assertEquals(personScore, mine.score);
        assertTrue(mine.finishedAt != null && !mine.finishedAt.isBefore(its.finishedAt), mine.finishedAt + "");
        assertEquals(1, messages.written.stream().filter("FINISHED WON"::equals).count(), messages.written.toString());
        assertEquals(1, messages.written.stream().filter("FINISHED OVER"::equals).count(), messages.written.toString());
        ClientErrorException over = assertThrows(ClientErrorException.class, () -> playNext(person, 11));
        assertEquals(409, status(over));
    }

    @Test
    void anAiEndingAheadOfItsPersonSetsTheScoreToBeatAndTheMatchGoesOn() {
        MatchEntity m = new MatchEntity();
        UUID[] seats = aiMatch(m);
        UUID person = seats[0];
        UUID ai = seats[1];
        playNext(person, 1);
        playAiToItsEnd(ai);
        assertEquals(40, store.games.get(ai).score);
        assertTrue(store.games.get(person).score < 40);
        MatchEntity row = store.matches.get(m.id); // as written back: the score to beat alone changed
        assertEquals(MatchEntity.Status.PLAYING, row.status);
        assertEquals(40, row.targetScore);
        assertEquals(null, row.winnerSeat);
        assertEquals(GameEntity.Status.PLAYING, store.games.get(person).status);
        playNext(person, 2);
        assertEquals(40, store.matches.get(m.id).targetScore);
    }

    /**
     * The AI's last placement (game over) takes it above the score its person set by resigning: it has won at once, as
     * on any other placement. Before, the game ended as OVER ahead of the judge, which then took both games for ended
     * and made the AI's own final score the score to beat.
     */
    @Test
    void anAisLastPlacementThatBeatsTheScoreToBeatWinsAndKeepsTheTarget() {
        for (long seed = 1; seed < 200; seed++) {
            if (new GameCommandsTest().aiBeatsTheTargetOnItsLastPlacement(seed)) {
                return;
            }
        }
        throw new AssertionError("no MEDIUM seed below 200 where a resignation can set a score the AI's last "
                + "placement beats");
    }

    /** False when {@code seed} has no such score (the person's scores jump over the AI's last two). */
    boolean aiBeatsTheTargetOnItsLastPlacement(long seed) {
        MatchEntity m = new MatchEntity();
        UUID[] seats = aiMatch(m, seed);
        UUID person = seats[0];
        UUID ai = seats[1];
        // the AI up to its last placement (the last legal one each time)
        int[] last;
        int finalScore;
        while (true) {
            GameEntity g = store.locked(ai);
            Rebuilt r = log.current(g);
            int[] p = lastLegal(r.game);
            Game trial = r.game.copy();
            trial.place(p[0], p[1], p[2]);
            if (trial.gameOver()) {
                last = p;
                finalScore = trial.score();
                break;
            }
            moves.placed(g, r, r.lastMoveNumber() + 1, p[0], p[1], p[2]);
        }
        int before = store.games.get(ai).score;
        // the person plays until at or above the AI's score, then resigns: the score to beat, below the AI's last
        int n = 1;
        while (store.games.get(person).score < before
                && store.games.get(person).status == GameEntity.Status.PLAYING) {
            playNext(person, n++);
        }
        int target = store.games.get(person).score;
        if (store.games.get(person).status != GameEntity.Status.PLAYING || target < before || target >= finalScore) {
            return false;
        }
        resignations.resign(person, ANN);
        assertEquals(target, store.matches.get(m.id).targetScore);
        assertEquals(MatchEntity.Status.PLAYING, store.matches.get(m.id).status);

        assertTrue(placeLocked(ai, game -> last).game.gameOver());
        MatchEntity decided = store.matches.get(m.id);
        assertEquals(MatchEntity.Status.FINISHED, decided.status);
        assertEquals(1, decided.winnerSeat);
        assertEquals(target, decided.targetScore, "the score to beat stays the one the person set");
        GameEntity its = store.games.get(ai);
        assertEquals(GameEntity.Status.WON, its.status, "above the score to beat: won, on its last placement too");
        assertEquals(finalScore, its.score);
        assertEquals(GameEntity.Status.RESIGNED, store.games.get(person).status);
        assertEquals(1, messages.written.stream().filter("FINISHED WON"::equals).count(), messages.written.toString());
        assertEquals(0, messages.written.stream().filter("FINISHED OVER"::equals).count(), messages.written.toString());
        return true;
    }

    /**
     * The grid of a race's seat ahead, held back to the end of an earlier round, is read from its events once: every
     * socket of the seat behind asks for it at every change of the seat ahead. Before, each asked read the whole game.
     */
    @Test
    void aHeldBackGridOfARoundTheGameHasLeftIsReadOnce() {
        MatchEntity m = new MatchEntity();
        m.id = UUID.randomUUID();
        m.mode = GameEntity.Mode.ONLINE_RACE;
        m.level = Level.EASY;
        m.status = MatchEntity.Status.PLAYING;
        store.matches.put(m.id, m);
        creation.ofMatch(m.mode, Level.EASY, 3, ANN, null, m.id, 0);
        UUID ahead = creation.ofMatch(m.mode, Level.EASY, 3, new Requester("bob", "Bob", null), null, m.id, 1).id;
        // round 0 and many more: more events than two of the store's pages
        while (store.events.getOrDefault(ahead, List.of()).size() <= 2 * GameStore.PAGE) {
            placeLocked(ahead, g -> Play.byAi(g, 3)); // a player that lasts
        }
        GameEntity row = store.read(ahead);
        assertTrue(log.current(row).game.round() > 1);
        int before = store.eventReads;
        int readBefore = store.eventsRead;
        GameViews.Grid first = views.gridUpTo(row, 0);
        assertEquals(before + 1, store.eventReads);
        // the first page only, not the game whole: before, every one of the game's events was read
        assertEquals(GameStore.PAGE, store.eventsRead - readBefore);
        GameViews.Grid again = views.gridUpTo(row, 0);
        assertEquals(before + 1, store.eventReads, "the end of round 0 is kept: no second read");
        Game expected = GameLog.replayed(row, store.events.get(ahead).stream().filter(e -> e.round == 0).toList())
                .game;
        // only what the view shows is kept, not the engine's game and its events
        assertEquals(GameViews.Grid.of(expected), again);
        assertEquals(expected.score(), first.score());
        // the next round reads on from the end of the last: before, each round read every round before it again (a
        // seat one round behind the other made that a read of the whole game a round)
        int fromStart = store.readsFromStart;
        int readRound0 = store.eventsRead;
        views.gridUpTo(row, 1);
        assertEquals(fromStart, store.readsFromStart, "round 1 read on from the end of round 0");
        assertEquals(GameStore.PAGE, store.eventsRead - readRound0);
        Game round1 = GameLog.replayed(row, store.events.get(ahead).stream().filter(e -> e.round <= 1).toList()).game;
        assertEquals(GameViews.Grid.of(round1), views.gridUpTo(row, 1));
        int now = log.current(row).game.round();
        int readNow = store.eventsRead;
        views.gridUpTo(row, now);
        views.gridUpTo(row, now);
        assertEquals(2 * store.events.get(ahead).size(), store.eventsRead - readNow,
                "the round in progress is not final: not kept");
    }

    /**
     * The person resigns behind the AI's score: the AI has won, and its game ends WON in the same change when its row
     * is free. Before, it stayed PLAYING until the AI driver's next tick, and the match's last state frame, sent on
     * the person's change, showed the AI still playing.
     */
    @Test
    void aPersonEndingBehindTheAiEndsTheAisGameAsWonAtOnce() {
        MatchEntity m = new MatchEntity();
        UUID[] seats = aiMatch(m);
        UUID person = seats[0];
        UUID ai = seats[1];
        while (store.games.get(ai).score == 0) {
            placeLocked(ai, GameCommandsTest::firstLegal);
        }
        resignations.resign(person, ANN);
        MatchEntity decided = store.matches.get(m.id);
        assertEquals(MatchEntity.Status.FINISHED, decided.status);
        assertEquals(1, decided.winnerSeat);
        assertEquals(GameEntity.Status.WON, store.games.get(ai).status, "ended with the person's change");
        assertEquals(decided.finishedAt, store.games.get(ai).finishedAt);
        assertEquals(1, messages.written.stream().filter("FINISHED WON"::equals).count(), messages.written.toString());
        judge.endDecidedAiGame(ai); // the driver's tick finds it ended: nothing more
        assertEquals(1, messages.written.stream().filter("FINISHED WON"::equals).count(), messages.written.toString());
    }
}
