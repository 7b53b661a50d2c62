package com.bloceclat.leaderboard;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import com.bloceclat.testsupport.KafkaResource;

import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/** Reading topics in the tests: the records of a topic that match, once there are as many as expected. */
final class Kafka {

    private Kafka() {
    }

    /** Waits until the topic holds at least {@code count} records matching, and returns them in order. */
    static List<ConsumerRecord<String, String>> awaitRecords(KafkaCompanion companion, String topic, int count,
            Predicate<ConsumerRecord<String, String>> matching) {
        try (ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(topic)) {
            await().atMost(Duration.ofSeconds(60)).until(
                    () -> task.getRecords().stream().filter(matching).count() >= count);
            return task.getRecords().stream().filter(matching).toList();
        }
    }

    static List<ConsumerRecord<String, String>> awaitRecords(String topic, int count,
            Predicate<ConsumerRecord<String, String>> matching) {
        try (KafkaCompanion companion = KafkaResource.companion()) {
            return awaitRecords(companion, topic, count, matching);
        }
    }
}
