// The local stack's broker's ACLs, as its super user admin (password KAFKA_ADMIN_PASSWORD of .bloc/secrets/bloc.env,
// read by KafkaPublish.password: compiled with it by e2e/lib/kafka.mjs, not a single-file program):
//   KafkaAcl BOOTSTRAP list                       one line an ACL: TYPE PATTERN NAME PRINCIPAL HOST OPERATION PERMISSION
//   KafkaAcl BOOTSTRAP allow USER OPERATION TOPIC  adds that grant on the literal topic (what an older access.conf
//                                                  or a hand may have left)
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

public class KafkaAcl {
    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", args[0]);
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\""
                + " password=\"" + KafkaPublish.password("admin") + "\";");
        try (Admin admin = Admin.create(p)) {
            if (args[1].equals("list")) {
                for (AclBinding b : admin.describeAcls(AclBindingFilter.ANY).values().get()) {
                    System.out.println(String.join(" ", b.pattern().resourceType().name(),
                            b.pattern().patternType().name(), b.pattern().name(), b.entry().principal(),
                            b.entry().host(), b.entry().operation().name(), b.entry().permissionType().name()));
                }
            } else if (args[1].equals("allow") && args.length == 5) {
                admin.createAcls(List.of(new AclBinding(
                        new ResourcePattern(ResourceType.TOPIC, args[4], PatternType.LITERAL),
                        new AccessControlEntry("User:" + args[2], "*", AclOperation.fromString(args[3]),
                                AclPermissionType.ALLOW)))).all().get();
            } else {
                System.err.println("usage: KafkaAcl BOOTSTRAP list | allow USER OPERATION TOPIC");
                System.exit(2);
            }
        }
    }
}
