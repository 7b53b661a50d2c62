// Publishes one message to the local stack's Kafka, for checks that need a message no service would send
// (e.g. a tampered game-finished). Run with the broker's own client jar, no build:
//   java -cp '.bloc/dist/kafka-4.1.1/libs/*' e2e/lib/KafkaPublish.java localhost:19092 TOPIC KEY < value
// The broker takes SASL/SCRAM only (docs/platform.md): it logs in as BLOC_KAFKA_USER (default game-service, the
// only user allowed to write game-finished) with BLOC_KAFKA_PASSWORD, or that user's password from
// .bloc/secrets/bloc.env (found from the working directory up); BLOC_KAFKA_USER=none sends without SASL.
// BLOC_SIGN=1 wraps the value in game-service's signed envelope (docs/events.md "Signed messages"), signed with
// BLOC_SIGNING_KEY_ID / BLOC_SIGNING_PRIVATE_KEY from .bloc/secrets/bloc.env: what only a holder of game-service's
// key can do (the admin-audit check uses it to plant a tampered, correctly signed result).
// Prints topic-partition@offset; on a refusal prints the exception's class and message to stderr and exits 3
// (authorization or authentication refused), 1 otherwise.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;

public class KafkaPublish {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: [BLOC_KAFKA_USER=u] [BLOC_KAFKA_PASSWORD=p] KafkaPublish BOOTSTRAP TOPIC KEY < value");
            System.exit(2);
        }
        String value = new String(System.in.readAllBytes(), StandardCharsets.UTF_8).strip();
        if ("1".equals(System.getenv("BLOC_SIGN"))) {
            value = signed(value);
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", args[0]);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("acks", "all");
        p.put("max.block.ms", Optional.ofNullable(System.getenv("BLOC_KAFKA_MAX_BLOCK_MS")).orElse("20000"));
        String user = Optional.ofNullable(System.getenv("BLOC_KAFKA_USER")).orElse("game-service");
        if (!user.equals("none")) {
            String password = Optional.ofNullable(System.getenv("BLOC_KAFKA_PASSWORD")).orElseGet(() -> password(user));
            p.put("security.protocol", "SASL_PLAINTEXT");
            p.put("sasl.mechanism", "SCRAM-SHA-512");
            p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                    + user + "\" password=\"" + password + "\";");
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            RecordMetadata m = producer.send(new ProducerRecord<>(args[1], args[2], value)).get();
            System.out.println(m.topic() + "-" + m.partition() + "@" + m.offset());
        } catch (ExecutionException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            System.err.println(cause.getClass().getName() + ": " + cause.getMessage());
            boolean refused = cause instanceof AuthorizationException || cause instanceof AuthenticationException;
            System.exit(refused ? 3 : 1);
        }
    }

    /** The envelope {"keyId","signature","message"}: Ed25519 over the message's UTF-8 bytes. */
    static String signed(String message) throws java.security.GeneralSecurityException {
        String keyId = secret("BLOC_SIGNING_KEY_ID=");
        java.security.PrivateKey key = java.security.KeyFactory.getInstance("Ed25519").generatePrivate(
                new java.security.spec.PKCS8EncodedKeySpec(java.util.Base64.getDecoder()
                        .decode(secret("BLOC_SIGNING_PRIVATE_KEY="))));
        java.security.Signature s = java.security.Signature.getInstance("Ed25519");
        s.initSign(key);
        s.update(message.getBytes(StandardCharsets.UTF_8));
        return "{\"keyId\":" + quoted(keyId) + ",\"signature\":\""
                + java.util.Base64.getEncoder().encodeToString(s.sign()) + "\",\"message\":" + quoted(message) + "}";
    }

    /** A JSON string literal. */
    static String quoted(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** KAFKA_<USER>_PASSWORD from .bloc/secrets/bloc.env, looked for from the working directory up. */
    static String password(String user) {
        return secret("KAFKA_" + user.toUpperCase().replace('-', '_') + "_PASSWORD=");
    }

    /** The value of NAME= in .bloc/secrets/bloc.env, looked for from the working directory up. */
    static String secret(String name) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve(".bloc/secrets/bloc.env");
            if (Files.isRegularFile(file)) {
                try {
                    return Files.readAllLines(file).stream().filter(l -> l.startsWith(name))
                            .map(l -> l.substring(name.length())).reduce((a, b) -> b)
                            .orElseThrow(() -> new IllegalStateException("no " + name + " in " + file));
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalStateException("no .bloc/secrets/bloc.env above " + Path.of("").toAbsolutePath()
                + ": run ./bloc up (or set BLOC_KAFKA_PASSWORD)");
    }
}
