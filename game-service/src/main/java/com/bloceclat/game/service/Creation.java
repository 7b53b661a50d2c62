package com.bloceclat.game.service;

import java.security.SecureRandom;
import java.time.LocalDate;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;

import com.bloceclat.engine.Level;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEntity.SeedSource;
import com.bloceclat.game.service.Views.GameView;

/** Creates games: a solo game on its seed, and the games of a match ({@link MatchService}). */
@ApplicationScoped
class Creation {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    GameLog log;

    @Inject
    GameViews views;

    @Inject
    DailyChallenge daily;

    @Inject
    GameStore store;

    /**
     * A new solo game on the server's seed (a CSPRNG's, {@link SeedSource#SERVER}), the one given
     * ({@link SeedSource#CHOSEN}) or today's daily seed ({@link SeedSource#DAILY}, also for guests).
     */
    GameView solo(GameService.NewGame request, Requester requester) {
        if (request.seed() != null && request.daily()) {
            throw new BadRequestException("Choose either a seed or the daily game, not both.");
        }
        if (request.practice() && !request.daily()) {
            throw new BadRequestException("practice is for the daily game: send it with daily: true.");
        }
        long seed;
        SeedSource source;
        LocalDate day = null;
        if (request.daily()) {
            day = daily.today();
            seed = daily.seed(day, request.level());
            source = SeedSource.DAILY;
        } else if (request.seed() != null) {
            seed = request.seed();
            source = SeedSource.CHOSEN;
        } else {
            seed = randomSeed();
            source = SeedSource.SERVER;
        }
        String token = requester.guest() ? newGameToken() : null;
        // only a player's first daily game of a day and level counts, and only if it had ended before another began
        // (else the other could scout its pieces for it): one still in play is not made practice by a start that did
        // not ask for practice (a retry, a stale page), which is refused instead; the caller holds the player's lock
        boolean practice = source == SeedSource.DAILY && !requester.guest()
                && store.hasDailyGame(requester.subject(), day, request.level());
        if (practice) {
            UUID counting = store.countingDailyInPlay(requester.subject(), day, request.level());
            if (counting != null && !request.practice()) {
                throw Refusals.conflict("Your daily game of " + request.level() + " today, " + counting + ", is still "
                        + "in play and counts: finish it first, or start practice (practice: true), after which it "
                        + "no longer counts.");
            }
            store.practiceDailiesInPlay(requester.subject(), day, request.level());
        }
        GameEntity g = game(GameEntity.Mode.SOLO, request.level(), seed, source, day, requester, token, null, null,
                practice);
        return views.of(g, GameLog.replayed(g, List.of())).withToken(token);
    }

    /** A match's game on the match's seed, the server's ({@link SeedSource#SERVER}, the match's {@link #randomSeed}). */
    GameEntity ofMatch(GameEntity.Mode mode, Level level, long seed, Requester owner, String token, UUID matchId,
            int seat) {
        return game(mode, level, seed, SeedSource.SERVER, null, owner, token, matchId, seat, false);
    }

    /** A random seed for a new game or match. */
    static long randomSeed() {
        return RANDOM.nextLong();
    }

    /** A new guest game token: 32 random bytes, base64url. */
    static String newGameToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Stores a new game and announces it. {@code owner} null means the game is played by game-service (the AI);
     * otherwise a guest owner needs {@code token}. {@code day} is the UTC day of a {@link SeedSource#DAILY} seed.
     */
    private GameEntity game(GameEntity.Mode mode, Level level, long seed, SeedSource source, LocalDate day,
            Requester owner, String token, UUID matchId, Integer seat, boolean dailyPractice) {
        if ((source == SeedSource.DAILY) != (day != null)) {
            throw new IllegalArgumentException("a daily seed has its day, no other has one");
        }
        GameEntity g = new GameEntity();
        g.id = UUID.randomUUID();
        g.mode = mode;
        g.level = level;
        g.seed = seed;
        g.seedSource = source;
        g.dailyDay = day;
        g.dailyPractice = dailyPractice;
        if (owner != null && owner.guest()) {
            g.guestTokenHash = Refusals.sha256(token);
        } else if (owner != null) {
            g.ownerSubject = owner.subject();
            g.ownerName = owner.name();
        }
        g.matchId = matchId;
        g.seat = seat;
        log.create(g);
        return g;
    }
}
