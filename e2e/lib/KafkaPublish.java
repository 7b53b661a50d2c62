// Publishes one message to the local stack's Kafka, for checks that need a message no service would send
// (e.g. a tampered game-finished). Run with the broker's own client jar, no build:
//   java -cp '.bloc/dist/kafka-4.1.1/libs/*' e2e/lib/KafkaPublish.java localhost:19092 TOPIC KEY < value
import java.nio.charset.StandardCharsets;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

public class KafkaPublish {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: KafkaPublish BOOTSTRAP TOPIC KEY < value");
            System.exit(2);
        }
        String value = new String(System.in.readAllBytes(), StandardCharsets.UTF_8).strip();
        Properties p = new Properties();
        p.put("bootstrap.servers", args[0]);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("acks", "all");
        p.put("max.block.ms", "20000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            RecordMetadata m = producer.send(new ProducerRecord<>(args[1], args[2], value)).get();
            System.out.println(m.topic() + "-" + m.partition() + "@" + m.offset());
        }
    }
}
