// Prints "TOPIC PARTITIONS" for each topic, read from the local stack's broker as game-service (its ACLs allow
// Describe on the topics it writes):
//   java -cp '.bloc/dist/kafka-4.1.1/libs/*' e2e/lib/KafkaTopics.java localhost:19092 game-finished game-events
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;

public class KafkaTopics {
    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", args[0]);
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"game-service\""
                + " password=\"" + password() + "\";");
        List<String> topics = Arrays.asList(args).subList(1, args.length);
        try (Admin admin = Admin.create(p)) {
            admin.describeTopics(topics).allTopicNames().get()
                    .forEach((name, d) -> System.out.println(name + " " + d.partitions().size()));
        }
    }

    /** KAFKA_GAME_SERVICE_PASSWORD from .bloc/secrets/bloc.env, looked for from the working directory up. */
    static String password() throws Exception {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve(".bloc/secrets/bloc.env");
            if (Files.isRegularFile(file)) {
                return Files.readAllLines(file).stream().filter(l -> l.startsWith("KAFKA_GAME_SERVICE_PASSWORD="))
                        .map(l -> l.substring(l.indexOf('=') + 1)).reduce((a, b) -> b).orElseThrow();
            }
        }
        throw new IllegalStateException("no .bloc/secrets/bloc.env: run ./bloc up");
    }
}
