// Prints one line per member of a consumer group of the local stack's broker, "MEMBER_ID TOPIC-PARTITION,...", read
// as leaderboard-service (its ACLs allow Read, so Describe, on the groups starting leaderboard-service):
//   java -cp '.bloc/dist/kafka-4.1.1/libs/*' e2e/lib/KafkaGroup.java localhost:19092 leaderboard-service-game-finished
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;

public class KafkaGroup {
    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", args[0]);
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"leaderboard-service\" password=\"" + password() + "\";");
        try (Admin admin = Admin.create(p)) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(args[1])).all().get().get(args[1]);
            group.members().forEach(m -> System.out.println(m.consumerId() + " " + m.assignment().topicPartitions()
                    .stream().map(tp -> tp.topic() + "-" + tp.partition()).sorted().collect(Collectors.joining(","))));
        }
    }

    /** KAFKA_LEADERBOARD_SERVICE_PASSWORD from .bloc/secrets/bloc.env, looked for from the working directory up. */
    static String password() throws Exception {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path file = dir.resolve(".bloc/secrets/bloc.env");
            if (Files.isRegularFile(file)) {
                return Files.readAllLines(file).stream().filter(l -> l.startsWith("KAFKA_LEADERBOARD_SERVICE_PASSWORD="))
                        .map(l -> l.substring(l.indexOf('=') + 1)).reduce((a, b) -> b).orElseThrow();
            }
        }
        throw new IllegalStateException("no .bloc/secrets/bloc.env: run ./bloc up");
    }
}
