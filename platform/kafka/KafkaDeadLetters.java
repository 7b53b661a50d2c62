// The dead letters of the local stack's broker, for an operator (./bloc dead-letters, docs/platform.md):
//   list TOPIC [--payload]   every letter still on TOPIC (game-finished-dlq or bloc-canary-dlq), oldest first per
//                            partition, one JSON object a line: where it is, when it was written, its key and why it
//                            was refused (game-finished-dlq: the letter's "error"; bloc-canary-dlq: the header
//                            dead-letter-reason), and with --payload the original message;
//   redrive PARTITION OFFSET the game-finished-dlq letter there published again to game-finished, its original key
//                            and value verbatim, once its cause is fixed (a "database: ..." or "store failed: ..."
//                            refusal, an "unjudgeable: ..." game once a replica plays its rules): leaderboard-service
//                            checks its signature and reads it as any other, and a game it already has changes nothing.
// Read as admin (the super user; no consumer group, so nothing is committed and no service's offsets move); a redrive
// is written as game-service, the only writer of game-finished. Passwords by environment (KAFKA_ADMIN_PASSWORD,
// KAFKA_GAME_SERVICE_PASSWORD), never on a command line:
//   java -cp '.bloc/dist/kafka-<version>/libs/*' platform/kafka/KafkaDeadLetters.java localhost:19092 list game-finished-dlq
// Exit 0; 2 for a wrong use (an error line on stderr), 1 when the broker could not be read or written.
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

public class KafkaDeadLetters {

    static final String GAMES = "game-finished-dlq";
    static final String CANARIES = "bloc-canary-dlq";
    static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The longest a listing or a redrive waits for the broker, from its start to its end, before it says so (exit 1)
     * instead of spinning on: every call that waits is given what is left of it ({@link #left}). Before, only the
     * reading loop was bounded, behind three calls of 30 s each. {@code -Dbloc.dead-letters.wait-seconds} sets another
     * (the e2e stage's test of an unreachable broker).
     */
    static final Duration WAIT = Duration.ofSeconds(Long.getLong("bloc.dead-letters.wait-seconds", 120));

    public static void main(String[] args) {
        try {
            if (args.length >= 3 && args[1].equals("list") && (args.length == 3
                    || args.length == 4 && args[3].equals("--payload"))) {
                list(args[0], topic(args[2]), args.length == 4);
            } else if (args.length == 4 && args[1].equals("redrive")) {
                redrive(args[0], (int) number(args[2], "PARTITION", Integer.MAX_VALUE),
                        number(args[3], "OFFSET", Long.MAX_VALUE));
            } else {
                throw new Usage("usage: KafkaDeadLetters BOOTSTRAP list (" + GAMES + "|" + CANARIES
                        + ") [--payload] | KafkaDeadLetters BOOTSTRAP redrive PARTITION OFFSET");
            }
        } catch (Usage e) {
            System.err.println(e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            System.err.println("the broker: " + e);
            System.exit(1);
        }
    }

    /** Every letter on {@code topic}, up to the end each partition had when the listing began. */
    static void list(String bootstrap, String topic, boolean payload) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap)) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic, left(deadline))
                    .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, left(deadline));
            long letters = 0;
            while (partitions.stream().anyMatch(p -> consumer.position(p, left(deadline)) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no end of " + topic + " within " + WAIT.toSeconds()
                            + " s (the broker gone?); " + letters + " letter(s) listed");
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) {
                    if (r.offset() < ends.get(new TopicPartition(r.topic(), r.partition()))) {
                        System.out.println(line(r, payload));
                        letters++;
                    }
                }
            }
            System.err.println(letters + " dead letter(s) on " + topic + " (the topic keeps them 7 days)");
        }
    }

    /** One letter as a line of JSON. */
    static String line(ConsumerRecord<String, String> r, boolean withPayload) {
        ObjectNode out = JSON.createObjectNode().put("topic", r.topic()).put("partition", r.partition())
                .put("offset", r.offset()).put("writtenAt", Instant.ofEpochMilli(r.timestamp()).toString())
                .put("key", r.key());
        if (r.topic().equals(GAMES)) {
            JsonNode letter = letter(r.value());
            out.put("reason", letter == null ? "(not a dead letter of docs/events.md: " + length(r.value()) + ")"
                    : letter.path("error").asText(null));
            String original = letter == null ? null : letter.path("payload").asText(null);
            if (letter != null && letter.hasNonNull("topic")) {
                // where the original was: letters are at least once, and two letters of one message name one place
                out.put("original", letter.path("topic").asText() + "-" + letter.path("partition").asInt() + "@"
                        + letter.path("offset").asLong());
            }
            out.put("redrivable", original != null);
            if (withPayload) {
                out.put("payload", original);
            }
        } else {
            Header reason = r.headers().lastHeader("dead-letter-reason");
            out.put("reason", reason == null ? null : new String(reason.value(), StandardCharsets.UTF_8));
            if (withPayload) {
                out.put("payload", r.value());
            }
        }
        return out.toString();
    }

    /** Publishes the game-finished-dlq letter at {@code partition}/{@code offset} again to game-finished. */
    static void redrive(String bootstrap, int partition, long offset) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        ConsumerRecord<String, String> found = null;
        try (KafkaConsumer<String, String> consumer = consumer(bootstrap)) {
            TopicPartition at = new TopicPartition(GAMES, partition);
            if (consumer.partitionsFor(GAMES, left(deadline)).stream().noneMatch(p -> p.partition() == partition)) {
                throw new Usage(GAMES + " has no partition " + partition);
            }
            consumer.assign(List.of(at));
            long first = consumer.beginningOffsets(List.of(at), left(deadline)).get(at);
            long end = consumer.endOffsets(List.of(at), left(deadline)).get(at);
            if (offset < first || offset >= end) {
                throw new Usage("no letter at " + GAMES + "-" + partition + "@" + offset + " (its letters now: "
                        + (first < end ? first + " to " + (end - 1) : "none") + ")");
            }
            consumer.seek(at, offset);
            while (found == null && consumer.position(at, left(deadline)) <= offset) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the letter at " + GAMES + "-" + partition + "@" + offset
                            + " was not read within " + WAIT.toSeconds() + " s (the broker gone?)");
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) {
                    if (r.offset() == offset) {
                        found = r;
                    }
                }
            }
        }
        if (found == null) {
            throw new Usage("no letter at " + GAMES + "-" + partition + "@" + offset + " (compacted or deleted)");
        }
        JsonNode letter = letter(found.value());
        if (letter == null || !letter.path("payload").isTextual()) {
            throw new Usage("the letter at " + GAMES + "-" + partition + "@" + offset + " holds no original message"
                    + (letter == null ? " (not a dead letter of docs/events.md)" : " (it was too large for the broker, "
                    + "or a tombstone): nothing to send again"));
        }
        String key = letter.path("key").asText(found.key());
        Properties p = login(bootstrap, "game-service", "KAFKA_GAME_SERVICE_PASSWORD");
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("compression.type", "zstd");
        p.put("max.request.size", String.valueOf(16 * 1024 * 1024));
        p.put("max.block.ms", String.valueOf(left(deadline).toMillis()));
        KafkaProducer<String, String> producer = new KafkaProducer<>(p);
        try {
            RecordMetadata m = producer.send(new ProducerRecord<>("game-finished", key,
                    letter.path("payload").asText())).get(left(deadline).toMillis(), TimeUnit.MILLISECONDS);
            System.out.println("sent again: " + GAMES + "-" + partition + "@" + offset + " (key " + key + ") as "
                    + m.topic() + "-" + m.partition() + "@" + m.offset());
        } finally {
            producer.close(Duration.ZERO); // sent, or out of time: nothing left to wait for
        }
    }

    /** What is left of the wait that ends at {@code deadline} ({@link #WAIT} from the start); past it, none. */
    static Duration left(long deadline) {
        long nanos = deadline - System.nanoTime();
        if (nanos <= 0) {
            throw new IllegalStateException("no answer from the broker within " + WAIT.toSeconds() + " s");
        }
        return Duration.ofNanos(nanos);
    }

    /** The letter's JSON object, or null when the value is not one (a letter is never that; said, not thrown). */
    static JsonNode letter(String value) {
        try {
            JsonNode node = value == null ? null : JSON.readTree(value);
            return node != null && node.isObject() ? node : null;
        } catch (Exception e) {
            return null;
        }
    }

    static String length(String value) {
        return value == null ? "a tombstone" : value.length() + " characters";
    }

    static KafkaConsumer<String, String> consumer(String bootstrap) {
        Properties p = login(bootstrap, "admin", "KAFKA_ADMIN_PASSWORD");
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        p.put("enable.auto.commit", "false");
        // a segment deleted by retention under a listing: on from the oldest letter left, not from the end (skipped)
        p.put("auto.offset.reset", "earliest");
        p.put("max.partition.fetch.bytes", String.valueOf(16 * 1024 * 1024));
        return new KafkaConsumer<>(p);
    }

    static Properties login(String bootstrap, String user, String passwordVariable) {
        String password = System.getenv(passwordVariable);
        if (password == null || password.isEmpty()) {
            throw new Usage(passwordVariable + " is not set");
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + user + "\" password=\"" + password + "\";");
        return p;
    }

    static String topic(String name) {
        if (!name.equals(GAMES) && !name.equals(CANARIES)) {
            throw new Usage("unknown dead-letter topic '" + name + "' (one of: " + GAMES + " " + CANARIES + ")");
        }
        return name;
    }

    static long number(String text, String what, long max) {
        try {
            long n = Long.parseLong(text);
            if (n >= 0 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new Usage(what + " must be a whole number from 0, not '" + text + "'");
    }

    static class Usage extends RuntimeException {
        Usage(String message) {
            super(message, null, false, false);
        }
    }
}
