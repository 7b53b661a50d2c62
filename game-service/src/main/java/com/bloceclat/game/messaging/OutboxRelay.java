package com.bloceclat.game.messaging;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.game.OutboxMessage;
import com.bloceclat.game.config.GameConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;

/**
 * Sends the outbox to Kafka: woken after each commit that wrote messages ({@link #wake}, a pass
 * {@code bloc.outbox.linger} later), and every {@code bloc.outbox.poll-interval} by the Quarkus scheduler
 * ({@link #poll}) in case a wake-up was missed or Kafka was down. Guarantees:
 * <ul>
 * <li>One pass at a time on a replica, whichever path started it (a pass waits for the one running to end), so a
 * replica sends its rows in outbox order, but for rows kept after a failed send (next point).</li>
 * <li>A row is deleted only once the broker acknowledged it; a row whose send failed for a reason that may pass
 * (broker unreachable, timeout, not authorised, anything not known to be the row's own fault) stays and is sent on a
 * later pass, so a message is never lost (consumers deduplicate by game id or event id). Not while this replica's
 * earlier send of it is unsettled, though ({@link OutboxSender}: the producer retries a record for up to its
 * {@code delivery.timeout.ms}, far past {@code send-timeout}), nor once that send was acknowledged late (the row is
 * then deleted unsent): a broker away for many passes gets one copy of a row from each replica that sent it, not one
 * a pass. A message may still arrive twice: a send acknowledged after {@code send-timeout} whose row another replica
 * sent meanwhile, one still unsettled an hour after it was made ({@link OutboxSender#REMEMBERED}: sent anew), or a
 * crash (below). A kept row steps aside ({@link OutboxMessage#retryLater}: {@code poll-interval},
 * doubled at each failure, up to {@code retry-max}), so rows that keep failing (one topic refused, short of in-sync replicas) never hold back the
 * rows after them, of the other topic or of their own; a game's {@code game-events} may then arrive out of order
 * (each carries the game's version, and the sockets' clients keep the newest).</li>
 * <li>A row the broker can never take ({@link OutboxOutcome#of}: too large even compressed, refused as a record) is
 * parked with its reason, logged once and counted ({@code outbox.parked{topic}}); it never holds back the rows after
 * it: each row of a batch is judged on its own.</li>
 * <li>Rows are locked with SKIP LOCKED, so several replicas can relay one outbox; a game's messages may then arrive
 * out of order with no send failing (another replica sends later rows while one holds earlier ones).</li>
 * <li>A graceful stop waits for the batch in flight (its send takes at most {@code send-timeout}) instead of
 * interrupting it, and begins no other, so a stop sends nothing twice (a crash between the broker's acknowledgement
 * and the delete's commit can, and so can a send not acknowledged within {@code send-timeout}).</li>
 * </ul>
 * Both channels compress (zstd) and allow records far larger than the broker's limit before compression
 * ({@code max.request.size}, application.properties): the broker judges the compressed batch.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);

    @Inject
    GameConfig.Outbox config;

    @Inject
    MeterRegistry metrics;

    @Inject
    OutboxSender sender;

    /** The scheduler's identity of the periodic pass. */
    public static final String JOB = "outbox-relay";

    private final AtomicBoolean pending = new AtomicBoolean();
    /** Held for the whole of a pass: the wake-up's and the scheduler's passes never overlap. */
    private final ReentrantLock passes = new ReentrantLock();
    /** Runs the wake-up passes, {@code linger} after a commit (the periodic pass is the scheduler's). */
    private ScheduledExecutorService waker;
    /** Set when the application begins to stop: no new wake-up, and a pass ends after its batch. */
    private volatile boolean stopping;

    void start(@Observes StartupEvent event) {
        waker = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "outbox-relay"));
    }

    /**
     * A stop lets the pass in flight finish its batch instead of interrupting it: interrupted while waiting for the
     * broker's acknowledgements, its transaction rolled back and left rows the broker already had, which another
     * replica then sent again. No pass begins once the stop has begun ({@link #stopping}), so the wait is one batch's
     * send at most ({@code send-timeout}); what is left waits for another replica.
     */
    void stop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        stopping = true;
        if (waker == null) {
            return;
        }
        waker.shutdown();
        long wait = config.sendTimeout().toMillis() + config.linger().toMillis() + 1000;
        try {
            if (!waker.awaitTermination(wait, TimeUnit.MILLISECONDS)) {
                LOG.warnf("Outbox pass still running %d ms after the stop began; interrupted", wait);
                waker.shutdownNow();
            }
            // the scheduler's pass, if one is running
            if (passes.tryLock(wait, TimeUnit.MILLISECONDS)) {
                passes.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The periodic pass, by the Quarkus scheduler ({@code SKIP}: one still running is not joined by another). Sends
     * what no wake-up sent: rows kept after a failed send once their next attempt is due, rows whose wake-up was lost
     * (a crash after the commit).
     */
    @Scheduled(identity = JOB, every = "${bloc.outbox.poll-interval:2s}", delayed = "${bloc.outbox.poll-interval:2s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    public void poll() {
        relaySafely();
    }

    /**
     * Asks for a pass after {@code bloc.outbox.linger}; wake-ups that arrive meanwhile are merged into it, so under
     * load one pass (one transaction) sends the messages of many commits.
     */
    public void wake() {
        if (waker != null && !stopping && pending.compareAndSet(false, true)) {
            try {
                waker.schedule(() -> {
                    pending.set(false);
                    relaySafely();
                }, config.linger().toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // the stop shut the waker meanwhile: the rows wait in the outbox for another replica's pass
                pending.set(false);
            }
        }
    }

    private void relaySafely() {
        passes.lock();
        try {
            if (stopping) {
                return; // a pass that would begin after the stop began: its rows wait for another replica's pass
            }
            Pass pass;
            do {
                pass = relayBatch();
            } while (!stopping && pass.kept() == 0 && pass.more());
            // a full batch (by rows or by size) all settled: there is more; a row kept for later ends the run until
            // the next pass
        } catch (RuntimeException e) {
            JobFailures.count(metrics, JOB); // the database away (a failed send keeps its row: not a failed pass)
            LOG.warnf("Outbox not relayed this time (%s); the next pass retries", e.getMessage());
        } finally {
            passes.unlock();
        }
    }

    /**
     * What one pass did with its batch: rows sent (deleted), parked, kept for a later pass; and whether more rows were
     * due than the batch took.
     */
    record Pass(int sent, int parked, int kept, boolean more) {
    }

    /** Sends one batch, each row on its own: deletes the acknowledged rows, parks the ones that can never go. */
    Pass relayBatch() {
        return QuarkusTransaction.requiringNew().call(() -> {
            OutboxMessage.Batch due = OutboxMessage.nextPending(config.batchSize(), config.batchBytes());
            List<OutboxMessage.Pending> batch = due.rows();
            if (batch.isEmpty()) {
                return new Pass(0, 0, 0, false);
            }
            // a row this replica sent on an earlier pass is not sent again while that send is unsettled (the producer
            // still holds the record), nor once the broker acknowledged it: its earlier send is judged instead
            List<CompletableFuture<Void>> acks = new ArrayList<>(batch.size());
            List<CompletableFuture<Void>> fresh = new ArrayList<>(batch.size());
            boolean[] ofAnEarlierPass = new boolean[batch.size()];
            for (int i = 0; i < batch.size(); i++) {
                CompletableFuture<Void> earlier = sender.earlier(batch.get(i).id());
                ofAnEarlierPass[i] = earlier != null && !earlier.isCompletedExceptionally();
                CompletableFuture<Void> ack = ofAnEarlierPass[i] ? earlier : sender.send(batch.get(i));
                acks.add(ack);
                if (!ofAnEarlierPass[i]) {
                    fresh.add(ack.handle((ok, failure) -> null));
                }
            }
            try {
                // wait until every new send has settled (acknowledged or failed), at most the send timeout
                CompletableFuture.allOf(fresh.toArray(CompletableFuture[]::new))
                        .get(config.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // the unsettled ones are kept below
            }
            List<Long> sent = new ArrayList<>();
            List<Long> kept = new ArrayList<>();
            int parked = 0;
            String firstKept = null;
            for (int i = 0; i < batch.size(); i++) {
                OutboxMessage.Pending m = batch.get(i);
                CompletableFuture<Void> ack = acks.get(i);
                if (ack.isDone()) {
                    sender.settled(m.id());
                } else if (!ofAnEarlierPass[i]) {
                    sender.unsettled(m.id(), ack); // from this pass on, never renewed
                }
                OutboxOutcome outcome = ack.isDone() ? OutboxOutcome.of(OutboxSender.failureOf(ack))
                        : new OutboxOutcome.Retry(ofAnEarlierPass[i] ? "its send of an earlier pass not settled yet"
                                : "not acknowledged within " + config.sendTimeout().toMillis() + " ms");
                if (outcome instanceof OutboxOutcome.Sent) {
                    sent.add(m.id());
                } else if (outcome instanceof OutboxOutcome.Park p) {
                    OutboxMessage.park(m.id(), p.reason());
                    parked++;
                    metrics.counter("outbox.parked", "topic", m.topic()).increment();
                    LOG.warnf("Outbox row %d (topic %s, key %s, %d characters) parked, never to be sent: %s", m.id(),
                            m.topic(), m.key(), m.payload().length(), p.reason());
                } else if (outcome instanceof OutboxOutcome.Retry r) {
                    kept.add(m.id());
                    firstKept = firstKept == null ? r.reason() : firstKept;
                }
            }
            // one DELETE for the acknowledged rows, not one per row
            OutboxMessage.deleteSent(sent);
            OutboxMessage.retryLater(kept, config.pollInterval(), config.retryMax());
            if (!kept.isEmpty()) {
                LOG.warnf("Outbox: %d of %d messages not sent this time, kept for a later pass (%s)", kept.size(),
                        batch.size(), firstKept);
            }
            return new Pass(sent.size(), parked, kept.size(), due.more());
        });
    }
}
