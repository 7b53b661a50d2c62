package com.bloceclat.game.service;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.NotAuthorizedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.bloceclat.common.security.ClientKey;
import com.bloceclat.engine.Level;
import com.bloceclat.game.PrivateRace;
import com.bloceclat.game.service.Views.MatchView;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Private races: a logged-in player makes a link; the first other logged-in player who opens it races them at once
 * (an online race on the link's level and a new seed, no queue).
 *
 * <p>Guarantees:
 * <ul>
 *   <li>The link's code is 128 bits from {@link SecureRandom}: it cannot be guessed, and it is the only thing that
 *       lets someone join.</li>
 *   <li>A link makes one match at most: the join locks the link's row, so of two players opening it at once one gets
 *       the race and the other a 409. The player who joined gets the same match again by opening it again.</li>
 *   <li>A link is refused with 410 once {@code bloc.private-race.ttl} has passed since it was made (the clock is the
 *       injected {@link Clock}); its maker is refused with 409 (no race against oneself), a guest with 401.</li>
 *   <li>A player has at most {@code bloc.private-race.open-per-player} links open (not used, not expired) at once.</li>
 *   <li>The race's games count among each player's open games ({@link ClientLimits}): a guest past their limit is
 *       refused with 429, a link whose maker is past theirs with 409.</li>
 * </ul>
 * Who joined, and when, is never shown to anyone but the two players.
 */
@ApplicationScoped
public class PrivateRaceService {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    MatchService matches;

    @Inject
    Clock clock;

    @Inject
    MeterRegistry registry;

    @Inject
    ClientLimits limits;

    @ConfigProperty(name = "bloc.private-race.ttl", defaultValue = "15m")
    Duration ttl;

    @ConfigProperty(name = "bloc.private-race.open-per-player", defaultValue = "5")
    int openPerPlayer;

    /** A link as its maker and its guest see it. */
    public record LinkView(String code, String level, String host, OffsetDateTime expiresAt, String status,
                           UUID matchId) {
    }

    /** Makes a link for {@code host} on {@code level}. */
    @Transactional
    public LinkView create(Level level, Requester host) {
        requireLogin(host);
        // links asked for at once by one player are counted one after the other (an advisory lock on the player,
        // held until the transaction ends): without it they all passed the count. Taken or refused at once, never
        // waited for: a player's requests queued on it each held a pooled connection, and thirty of them took the
        // pool from every other request (as starts did, ClientLimits.reserve)
        if (!AdvisoryLocks.tryTake(PrivateRace.getEntityManager(), "private-race:" + host.subject())) {
            count("busy");
            throw new WebApplicationException("Another private race link of yours is being made: one at a time; try "
                    + "again in a second.", Response.status(429).header("Retry-After", 1).build());
        }
        OffsetDateTime now = now();
        long open = PrivateRace.count("hostSubject = ?1 and matchId is null and expiresAt > ?2", host.subject(), now);
        if (open >= openPerPlayer) {
            throw new ClientErrorException("You have " + open + " private race links open already (at most "
                    + openPerPlayer + "): use one or wait for one to expire.", Response.Status.CONFLICT);
        }
        PrivateRace r = new PrivateRace();
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        r.code = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        r.hostSubject = host.subject();
        r.hostName = host.name() == null ? "?" : host.name();
        r.level = level.name();
        r.createdAt = now;
        r.expiresAt = now.plus(ttl);
        r.persist();
        count("created");
        return view(r, host);
    }

    /** The link, for its maker waiting for a friend and for the friend about to join. */
    @Transactional
    public LinkView get(String code, Requester requester) {
        requireLogin(requester);
        return view(find(code, false), requester);
    }

    /** Joins the link's race: the match, at once. */
    @Transactional
    public MatchView join(String code, Requester guest) {
        requireLogin(guest);
        PrivateRace r = find(code, true);
        if (r.hostSubject.equals(guest.subject())) {
            count("refused_own");
            throw new ClientErrorException("This is your own link: send it to a friend.", Response.Status.CONFLICT);
        }
        if (r.matchId != null) {
            if (guest.subject().equals(r.guestSubject)) {
                return matches.state(r.matchId, guest);
            }
            count("refused_used");
            throw new ClientErrorException("This link has been used already.", Response.Status.CONFLICT);
        }
        if (!now().isBefore(r.expiresAt)) {
            count("refused_expired");
            throw new ClientErrorException("This link expired at " + r.expiresAt + ".", Response.Status.GONE);
        }
        reserveBoth(ClientKey.ofSubject(r.hostSubject), ClientKey.ofSubject(guest.subject()));
        MatchView match = matches.raceBetween(Level.valueOf(r.level), new Requester(r.hostSubject, r.hostName, null),
                guest);
        r.matchId = match.id();
        r.guestSubject = guest.subject();
        count("joined");
        return match;
    }

    /**
     * The race is a game of each player's: each must be within their limits ({@link ClientLimits}: open games, games
     * started lately). The two
     * clients are locked in one order (by key), so two joins of links between the same players cannot deadlock.
     */
    private void reserveBoth(String host, String guest) {
        for (String client : host.compareTo(guest) < 0 ? List.of(host, guest) : List.of(guest, host)) {
            if (client.equals(guest)) {
                limits.reserve(guest, ClientLimits.Start.GAME);
                continue;
            }
            try {
                limits.reserveWaiting(host, ClientLimits.Start.LINK_MAKER);
            } catch (WebApplicationException e) {
                if (e.getResponse().getStatus() != 429) {
                    throw e;
                }
                count("refused_host_busy");
                throw new ClientErrorException("The player who made this link has as many games open, or started "
                        + "lately, as they may; the link can be opened again once they have finished one or a little "
                        + "later.", Response.Status.CONFLICT);
            }
        }
    }

    private PrivateRace find(String code, boolean lock) {
        if (code == null || !code.matches("[A-Za-z0-9_-]{22}")) {
            throw new NotFoundException("There is no private race link '" + shorten(code) + "'.");
        }
        PrivateRace r = lock ? PrivateRace.findById(code, LockModeType.PESSIMISTIC_WRITE) : PrivateRace.findById(code);
        if (r == null) {
            throw new NotFoundException("There is no private race link '" + code + "'.");
        }
        return r;
    }

    private LinkView view(PrivateRace r, Requester viewer) {
        String status = r.matchId != null ? "STARTED" : now().isBefore(r.expiresAt) ? "OPEN" : "EXPIRED";
        boolean player = viewer.subject().equals(r.hostSubject) || viewer.subject().equals(r.guestSubject);
        return new LinkView(r.code, r.level, r.hostName, r.expiresAt, status, player ? r.matchId : null);
    }

    private static void requireLogin(Requester r) {
        if (r.guest()) {
            throw new NotAuthorizedException("Private races need a login: send a bearer token.", "Bearer");
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    private void count(String outcome) {
        registry.counter("game.private_race", "outcome", outcome).increment();
    }

    private static String shorten(String s) {
        if (s == null) {
            return "";
        }
        String clean = s.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > 40 ? clean.substring(0, 40) + "…" : clean;
    }
}
