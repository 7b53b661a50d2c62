// Applies platform/kafka/access.conf to the local stack's broker, as its super user: creates the topics (or adds
// partitions up to the listed count), sets the SCRAM-SHA-512 password of every user the file names (from
// KAFKA_<USER>_PASSWORD, e.g. KAFKA_GAME_SERVICE_PASSWORD), adds the ACLs and removes every ALLOW ACL no line of the
// file lists (one an older file granted, or one added by hand), so that the broker allows exactly what the file says;
// DENY entries are left alone (they only narrow what is allowed: an operator's emergency deny outlives a setup run).
// Idempotent; one JVM, run by ./bloc up after the broker starts:
//   KAFKA_ADMIN_PASSWORD=... KAFKA_GAME_SERVICE_PASSWORD=... KAFKA_LEADERBOARD_SERVICE_PASSWORD=... java -cp '.bloc/dist/kafka-<version>/libs/*' platform/kafka/KafkaSetup.java \
//       localhost:19092 platform/kafka/access.conf
// docker compose and k8s apply the same file with the image's CLI tools (platform/kafka/kafka-setup.sh).
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

public class KafkaSetup {
    public static void main(String[] args) throws Exception {
        if (args.length != 2 || System.getenv("KAFKA_ADMIN_PASSWORD") == null) {
            System.err.println("usage: KAFKA_ADMIN_PASSWORD=... KafkaSetup BOOTSTRAP ACCESS_CONF");
            System.exit(2);
        }
        Map<String, Integer> topics = new LinkedHashMap<>();
        List<AclBinding> acls = new ArrayList<>();
        Set<String> users = new TreeSet<>();
        int n = 0;
        for (String line : Files.readAllLines(Path.of(args[1]))) {
            n++;
            String[] f = line.strip().split("\\s+");
            if (f[0].isEmpty() || f[0].startsWith("#")) {
                continue;
            }
            if (f[0].equals("topic") && f.length == 3) {
                topics.put(f[1], Integer.parseInt(f[2]));
            } else if (f[0].equals("allow") && f.length == 6) {
                users.add(f[1]);
                ResourcePattern resource = new ResourcePattern(ResourceType.valueOf(f[3].toUpperCase()), f[5],
                        PatternType.valueOf(f[4].toUpperCase()));
                for (String op : f[2].split(",")) {
                    acls.add(new AclBinding(resource, new AccessControlEntry("User:" + f[1], "*",
                            // DescribeConfigs in the file, DESCRIBE_CONFIGS for Kafka (as the CLI reads it)
                            AclOperation.fromString(op.replaceAll("([a-z])([A-Z])", "$1_$2")),
                            AclPermissionType.ALLOW)));
                }
            } else {
                throw new IllegalArgumentException(args[1] + ":" + n + ": cannot read '" + line + "'");
            }
        }

        Properties p = new Properties();
        p.put("bootstrap.servers", args[0]);
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\""
                + " password=\"" + System.getenv("KAFKA_ADMIN_PASSWORD") + "\";");
        p.put("default.api.timeout.ms", "60000");
        try (Admin admin = Admin.create(p)) {
            Set<String> existing = admin.listTopics().names().get();
            List<NewTopic> create = new ArrayList<>();
            Map<String, NewPartitions> grow = new LinkedHashMap<>();
            Map<String, TopicDescription> described = admin.describeTopics(
                    topics.keySet().stream().filter(existing::contains).toList()).allTopicNames().get();
            topics.forEach((topic, partitions) -> {
                TopicDescription d = described.get(topic);
                if (d == null) {
                    create.add(new NewTopic(topic, Optional.of(partitions), Optional.empty()));
                } else if (d.partitions().size() < partitions) {
                    grow.put(topic, NewPartitions.increaseTo(partitions));
                }
            });
            if (!create.isEmpty()) {
                admin.createTopics(create).all().get();
            }
            if (!grow.isEmpty()) {
                admin.createPartitions(grow).all().get();
            }
            List<UserScramCredentialAlteration> passwords = new ArrayList<>();
            for (String user : users) {
                String env = "KAFKA_" + user.toUpperCase().replace('-', '_') + "_PASSWORD";
                String password = System.getenv(env);
                if (password == null || password.isEmpty()) {
                    throw new IllegalStateException("no password for Kafka user " + user + " (" + env + ")");
                }
                passwords.add(new UserScramCredentialUpsertion(user,
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password));
            }
            admin.alterUserScramCredentials(passwords).all().get();
            admin.createAcls(acls).all().get();
            // added before the stale ones go, so that no grant the file keeps is ever missing meanwhile
            Set<AclBinding> wanted = new HashSet<>(acls);
            Collection<AclBinding> stale = admin.describeAcls(AclBindingFilter.ANY).values().get().stream()
                    .filter(b -> b.entry().permissionType() == AclPermissionType.ALLOW && !wanted.contains(b))
                    .toList();
            if (!stale.isEmpty()) {
                admin.deleteAcls(stale.stream().map(AclBinding::toFilter).toList()).all().get();
            }
            System.out.println("Kafka: topics " + topics + " (created " + create.stream().map(NewTopic::name).toList()
                    + ", partitions added to " + grow.keySet() + "), users " + users + ", " + acls.size() + " ACLs"
                    + (stale.isEmpty() ? "" : ", removed " + stale.size() + " no line allows: " + stale));
        }
    }
}
