package com.bloceclat.game.service;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.NotFoundException;

import com.bloceclat.common.security.ClientKey;
import com.bloceclat.engine.Level;
import com.bloceclat.game.RaceTicket;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.Views.MatchView;
import com.bloceclat.game.service.Views.TicketView;

/**
 * The online race queue of each level: a logged-in player joining it is paired with the player who has waited
 * longest on it, or queued with a ticket; a ticket not asked about for {@code bloc.race.ticket-timeout} is passed
 * over. The match itself is made by {@link MatchService#raceBetween}.
 */
@ApplicationScoped
public class RaceQueue {

    @Inject
    MatchService matches;

    @Inject
    GameConfig.Race raceConfig;

    @Inject
    ClientLimits limits;

    /** What joining the queue gave: a match at once, or a ticket to wait with. */
    public record Joined(MatchView match, TicketView ticket) {
    }

    /**
     * A waiting ticket not asked for for this long is dropped at the level's next join (its player, back later, finds
     * no ticket and joins again); one not asked for within {@code bloc.race.ticket-timeout} is only passed over.
     */
    static final Duration STALE_AFTER = Duration.ofHours(1);

    /**
     * Joins the race queue of a level: paired with the player who has waited longest on it, or queued. Joining again
     * while waiting answers the same ticket (once within the player's limits); joining another level leaves the queue
     * of the first. Matchmaking on a level is serialised by an advisory lock, taken after the player's limits are
     * counted (the order of the two locks everywhere).
     */
    @Transactional
    public Joined join(Level level, Requester requester) {
        // a race is a game of each player's: past their limits (ClientLimits) a player joins no more; the one who
        // waits was counted when they joined, so they are past it by their own ticket at most, since a player waits on
        // one level at a time (before, one ticket a level: past it by five). Counted first, under the player's own
        // lock only: counted under the level's lock, a player whose count was slow (a long history, or a start of
        // their own holding their lock) held up every join of the level.
        limits.reserve(ClientKey.ofSubject(requester.subject()), ClientLimits.Start.RACE_JOIN);
        RaceTicket.lockLevel(level);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        RaceTicket mine = RaceTicket.waitingOf(level, requester.subject());
        if (mine != null) {
            mine.seenAt = now;
            return new Joined(null, view(mine));
        }
        RaceTicket.leaveOtherLevels(level, requester.subject());
        RaceTicket.dropStale(level, now.minus(STALE_AFTER));
        RaceTicket other = RaceTicket.oldestWaiting(level, requester.subject(),
                now.minus(raceConfig.ticketTimeout()));
        if (other == null) {
            RaceTicket t = new RaceTicket();
            t.id = UUID.randomUUID();
            t.subject = requester.subject();
            t.name = requester.name();
            t.level = level;
            t.createdAt = now;
            t.seenAt = now;
            t.persist();
            return new Joined(null, view(t));
        }
        // the one who waited is the host (seat 0); the answer is the joining player's view (seat 1)
        MatchView match = matches.raceBetween(level, new Requester(other.subject, other.name, null), requester);
        other.matchId = match.id();
        return new Joined(match, null);
    }

    /** The ticket, as its player's page asks for it while waiting: it is still there. */
    @Transactional
    public TicketView ticket(UUID id, Requester requester) {
        RaceTicket t = own(id, requester);
        if (t.matchId == null) {
            t.seenAt = OffsetDateTime.now(ZoneOffset.UTC);
        }
        return view(t);
    }

    /** Leaves the queue; a ticket already matched stays (the match has started). */
    @Transactional
    public void leave(UUID id, Requester requester) {
        RaceTicket t = own(id, requester);
        if (t.matchId != null) {
            throw Refusals.conflict("This ticket has its match already: " + t.matchId + ".");
        }
        t.cancelled = true;
    }

    /**
     * The caller's ticket, its row locked: a join that gives it its match meanwhile commits first, and the poll then
     * sees the match. Read unlocked, a poll's write of {@code seenAt} (the whole row) put back the match it had not
     * seen, and the player stayed queued though matched.
     */
    private static RaceTicket own(UUID id, Requester requester) {
        RaceTicket t = RaceTicket.findById(id, LockModeType.PESSIMISTIC_WRITE);
        if (t == null || t.cancelled) {
            throw new NotFoundException("There is no race ticket " + id + ".");
        }
        if (!t.subject.equals(requester.subject())) {
            throw new ForbiddenException("This ticket is another player's.");
        }
        return t;
    }

    private static TicketView view(RaceTicket t) {
        return new TicketView(t.id, t.level.name(), t.matchId == null, t.matchId, t.createdAt);
    }
}
