package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategy;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPath;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRule;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

class KubernetesManifestsTest {

    static final Path K8S = ServiceModule.ROOT.resolve("k8s");

    static List<HasMetadata> resources;

    /** The Secrets' templates: created once by the operator, never applied by the kustomization. */
    static final Path SECRETS_TEMPLATE = K8S.resolve("secrets/secrets.template.yaml");

    /** What {@code kubectl apply -k k8s} applies: the resources of {@link #manifestFiles()}. */
    static List<HasMetadata> applied;

    @BeforeAll
    static void parseEveryManifest() throws IOException {
        KubernetesSerialization serialization = new KubernetesSerialization();
        resources = new ArrayList<>();
        List<Path> files = new ArrayList<>(manifestFiles());
        files.add(SECRETS_TEMPLATE);
        for (Path file : files) {
            if (file.equals(SECRETS_TEMPLATE)) {
                applied = List.copyOf(resources);
            }
            try (InputStream in = Files.newInputStream(file)) {
                Object parsed = serialization.unmarshal(in);
                List<?> items = parsed instanceof List<?> list ? list : List.of(parsed);
                for (Object item : items) {
                    if (!(item instanceof HasMetadata resource) || item instanceof GenericKubernetesResource) {
                        fail(file.getFileName() + ": not a known Kubernetes kind: " + item);
                        return;
                    }
                    resources.add(resource);
                }
            }
        }
    }

    static List<Path> manifestFiles() throws IOException {
        try (Stream<Path> files = Files.list(K8S)) {
            return files.filter(f -> f.toString().endsWith(".yaml"))
                    .filter(f -> !f.getFileName().toString().equals("kustomization.yaml"))
                    .sorted()
                    .toList();
        }
    }

    static List<ServiceModule> services() {
        return ServiceModule.all();
    }

    @Test
    void kustomizationAppliesEveryManifest() throws IOException {
        JsonNode kustomization = new YAMLMapper().readTree(K8S.resolve("kustomization.yaml").toFile());
        Set<String> listed = new TreeSet<>();
        kustomization.get("resources").forEach(r -> listed.add(r.asText()));
        Set<String> files = manifestFiles().stream().map(f -> f.getFileName().toString())
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(files, listed);
    }

    /**
     * The kustomization applies no Secret: every {@code kubectl apply -k k8s} wrote the committed placeholders back over
     * the real values of a running cluster. The template holds the two Secrets the services read.
     */
    @Test
    void theKustomizationAppliesNoSecretAndTheTemplateHoldsBoth() {
        assertEquals(List.of(), applied.stream().filter(Secret.class::isInstance).map(r -> r.getMetadata().getName())
                .toList(), "Secrets kubectl apply -k would write back");
        assertEquals(Set.of("bloc-secrets", "bloc-signing"), resources.stream().filter(Secret.class::isInstance)
                .map(r -> r.getMetadata().getName()).collect(Collectors.toSet()));
    }

    @Test
    void resourceNamesAreUniquePerKind() {
        Set<String> seen = new HashSet<>();
        for (HasMetadata r : resources) {
            assertTrue(seen.add(r.getKind() + "/" + r.getMetadata().getName()), "duplicate " + r.getKind() + "/"
                    + r.getMetadata().getName());
        }
    }

    @ParameterizedTest
    @MethodSource("services")
    void deploymentRunsTheModuleImageOnItsPortWithProbesAndResources(ServiceModule module) {
        Deployment deployment = get(Deployment.class, module.name());
        Container container = single(deployment.getSpec().getTemplate().getSpec().getContainers());
        assertEquals(module.image(), container.getImage());
        int port = containerPort(container, "http");
        assertEquals(module.httpPort(), port, "container port of " + module);

        assertProbe(container, container.getLivenessProbe(), "/q/health/live", port);
        assertProbe(container, container.getReadinessProbe(), "/q/health/ready", port);
        // a busy JVM (a collection, the JIT after a start) may take over the 1 s default to answer: a liveness probe
        // that times out then restarts the pod when it is needed most, and a readiness probe takes it out of service;
        // a start-up probe's answers that time out are failures spent from its 3 minutes while the JVM warms up
        List<Probe> probes = new java.util.ArrayList<>(List.of(container.getLivenessProbe(),
                container.getReadinessProbe()));
        if (container.getStartupProbe() != null) {
            probes.add(container.getStartupProbe());
        }
        for (Probe probe : probes) {
            assertNotNull(probe.getTimeoutSeconds(), module + ": a probe without timeoutSeconds waits 1 s");
            assertTrue(probe.getTimeoutSeconds() >= 3, module + ": probe timeout " + probe.getTimeoutSeconds());
        }
        if (container.getStartupProbe() != null) {
            assertProbe(container, container.getStartupProbe(), "/q/health/started", port);
        }

        for (String kind : List.of("requests", "limits")) {
            Map<String, ?> amounts = kind.equals("requests") ? container.getResources().getRequests()
                    : container.getResources().getLimits();
            assertNotNull(amounts, module + " has no resource " + kind);
            assertTrue(amounts.containsKey("cpu") && amounts.containsKey("memory"), module + " " + kind + ": " + amounts);
        }
    }

    @ParameterizedTest
    @MethodSource("services")
    void deploymentGivesTheModuleTheEnvironmentItNeeds(ServiceModule module) {
        Container container = single(get(Deployment.class, module.name()).getSpec().getTemplate().getSpec()
                .getContainers());
        Map<String, String> env = environment(container);
        Set<String> missing = new TreeSet<>(module.requiredEnv());
        missing.removeAll(env.keySet());
        assertTrue(missing.isEmpty(), module + " lacks " + missing);

        if (module.usesDatabase()) {
            URI jdbc = URI.create(env.get("QUARKUS_DATASOURCE_JDBC_URL").substring("jdbc:".length()));
            assertServicePort(jdbc.getHost(), jdbc.getPort());
            assertEquals("/" + module.databaseName(), jdbc.getPath());
            assertTrue(databasesCreated().contains(module.databaseName()), module.databaseName() + " is never created");
        }
        if (module.usesKafka()) {
            String[] kafka = env.get("KAFKA_BOOTSTRAP_SERVERS").split(":");
            assertServicePort(kafka[0], Integer.parseInt(kafka[1]));
        }
        URI oidc = URI.create(env.get("QUARKUS_OIDC_AUTH_SERVER_URL"));
        assertServicePort(oidc.getHost(), oidc.getPort());
        assertEquals("/realms/" + realm().get("realm").asText(), oidc.getPath());
    }

    @ParameterizedTest
    @MethodSource("services")
    void serviceExposesTheContainerPort(ServiceModule module) {
        Service service = get(Service.class, module.name());
        Deployment deployment = get(Deployment.class, module.name());
        assertTrue(selects(service, deployment.getSpec().getTemplate().getMetadata().getLabels()),
                "selector of " + module);
        ServicePort port = single(service.getSpec().getPorts());
        assertEquals(module.httpPort(), port.getPort());
        Container container = single(deployment.getSpec().getTemplate().getSpec().getContainers());
        assertEquals(module.httpPort(), resolve(container, port.getTargetPort()));
    }

    /**
     * The Ingress routes each API to its service and the web UI's files to game-service, and nothing else: not
     * game-service's /q/* (metrics, health, OpenAPI), which "/" as a prefix used to route to the public.
     */
    @Test
    void ingressRoutesTheUiAndEachApiToItsServiceAndNotTheManagementPaths() throws IOException {
        List<HTTPIngressPath> paths = new ArrayList<>();
        for (IngressRule rule : single(all(Ingress.class)).getSpec().getRules()) {
            if (!rule.getHost().startsWith("auth.")) {
                for (HTTPIngressPath path : rule.getHttp().getPaths()) {
                    String name = path.getBackend().getService().getName();
                    assertEquals(single(get(Service.class, name).getSpec().getPorts()).getPort(),
                            path.getBackend().getService().getPort().getNumber(), "port for " + path.getPath());
                    paths.add(path);
                }
            }
        }
        Map<String, String> expected = new TreeMap<>(Map.of("/", "game-service", "/api/games/1/moves", "game-service",
                "/api/matches/1/live", "game-service", "/api/players/me", "game-service", "/config.json",
                "game-service", "/assets/index-1.js", "game-service", "/index.html", "game-service", "/sw.js",
                "game-service", "/api/leaderboards/HARD", "leaderboard-service", "/api/solver/solve", "solver-service"));
        try (Stream<Path> files = Files.list(ServiceModule.ROOT.resolve("web-ui/public"))) {
            files.forEach(f -> expected.put("/" + f.getFileName() + (Files.isDirectory(f) ? "/a.png" : ""),
                    "game-service"));
        }
        for (String unrouted : List.of("/q/metrics", "/q/health/ready", "/q/openapi", "/q/swagger-ui/", "/other")) {
            expected.put(unrouted, null);
        }
        expected.forEach((request, service) -> assertEquals(service, route(paths, request), request));
    }

    /** The Ingress's choice for a request path: an Exact match, else the longest Prefix by whole path elements. */
    private static String route(List<HTTPIngressPath> paths, String request) {
        HTTPIngressPath best = null;
        for (HTTPIngressPath p : paths) {
            if (p.getPathType().equals("Exact") && p.getPath().equals(request)) {
                return p.getBackend().getService().getName();
            }
            assertTrue(List.of("Exact", "Prefix").contains(p.getPathType()), p.getPath() + ": " + p.getPathType());
            boolean prefix = p.getPathType().equals("Prefix") && (p.getPath().equals("/")
                    || request.equals(p.getPath()) || request.startsWith(p.getPath() + "/"));
            if (prefix && (best == null || p.getPath().length() > best.getPath().length())) {
                best = p;
            }
        }
        return best == null ? null : best.getBackend().getService().getName();
    }

    /**
     * Through the auth host the public reaches the game's realm and the themes' files, not the master realm (its
     * admin has no brute-force protection: Keycloak's default) nor the admin console.
     */
    @Test
    void theAuthHostServesTheGamesRealmAloneNotMasterNorTheAdminConsole() {
        List<HTTPIngressPath> paths = single(all(Ingress.class)).getSpec().getRules().stream()
                .filter(r -> r.getHost().startsWith("auth.")).flatMap(r -> r.getHttp().getPaths().stream()).toList();
        String realm = "/realms/" + realm().get("realm").asText();
        for (String request : List.of(realm + "/protocol/openid-connect/auth", realm + "/protocol/openid-connect/token",
                realm + "/protocol/openid-connect/certs", realm + "/account",
                "/resources/x/login/keycloak/css/a.css")) {
            assertEquals("keycloak", route(paths, request), request);
        }
        for (String request : List.of("/realms/master/protocol/openid-connect/token", "/admin/master/console/",
                "/admin/realms/" + realm().get("realm").asText() + "/users", "/realms/master", "/metrics", "/")) {
            assertNull(route(paths, request), request + " is routed to the public");
        }
    }

    /** The browser reaches everything through the Ingress: /config.json and CORS must name its hosts. */
    @Test
    void theBrowserIsToldTheIngressHosts() {
        String game = null;
        String auth = null;
        for (IngressRule rule : single(all(Ingress.class)).getSpec().getRules()) {
            if (rule.getHost().startsWith("auth.")) {
                auth = "http://" + rule.getHost();
            } else {
                game = "http://" + rule.getHost();
            }
        }
        Map<String, String> gameEnv = environment(container("game-service"));
        assertEquals(game, gameEnv.get("BLOC_UI_SOLVER_URL"));
        assertEquals(game, gameEnv.get("BLOC_UI_LEADERBOARD_URL"));
        assertEquals(auth, gameEnv.get("BLOC_UI_KEYCLOAK_URL"));
        assertEquals(auth + "/realms/bloc-eclat", gameEnv.get("QUARKUS_OIDC_TOKEN_ISSUER"));
        for (String name : List.of("solver-service", "leaderboard-service")) {
            assertEquals(game, environment(container(name)).get("BLOC_UI_ORIGINS"), name);
        }
    }

    private static Container container(String deployment) {
        return single(get(Deployment.class, deployment).getSpec().getTemplate().getSpec().getContainers());
    }

    @Test
    void servicesAutoscale() {
        Set<String> scaled = new TreeSet<>();
        for (HorizontalPodAutoscaler hpa : all(HorizontalPodAutoscaler.class)) {
            String target = hpa.getSpec().getScaleTargetRef().getName();
            assertEquals("Deployment", hpa.getSpec().getScaleTargetRef().getKind());
            Deployment deployment = get(Deployment.class, target);
            assertTrue(hpa.getSpec().getMinReplicas() >= 1
                    && hpa.getSpec().getMinReplicas() <= hpa.getSpec().getMaxReplicas(), "replica bounds of " + target);
            // an HPA's Deployment declares no count: each apply would set it back, under the HPA's feet
            assertNull(deployment.getSpec().getReplicas(), "replicas of " + target + " are the HPA's to set");
            assertFalse(hpa.getSpec().getMetrics().isEmpty(), "metrics of " + target);
            scaled.add(target);
        }
        assertEquals(Set.of("game-service", "solver-service", "solver-service-internal", "leaderboard-service"),
                scaled);
    }

    /**
     * game-service's hints and AI moves go to a solver pool of their own that the public cannot reach: the public
     * pool is the Ingress's, the internal one is what game-service's SOLVER_URLS names, and its NetworkPolicy admits
     * game-service's pods alone. So a public flood takes no CPU from the searches game-service waits for.
     */
    @Test
    void theInternalSolverPoolIsGameServicesAlone() {
        Deployment internal = get(Deployment.class, "solver-service-internal");
        Deployment publicPool = get(Deployment.class, "solver-service");
        assertEquals(container("solver-service").getImage(), container("solver-service-internal").getImage());
        Map<String, String> internalPods = internal.getSpec().getTemplate().getMetadata().getLabels();
        Map<String, String> publicPods = publicPool.getSpec().getTemplate().getMetadata().getLabels();

        URI solverUrl = URI.create(environment(container("game-service")).get("SOLVER_URLS"));
        Service gameServicesPool = get(Service.class, solverUrl.getHost());
        assertTrue(selects(gameServicesPool, internalPods), "game-service's SOLVER_URLS reaches the internal pool");
        assertFalse(selects(gameServicesPool, publicPods), "game-service's SOLVER_URLS never reaches the public pool");

        for (IngressRule rule : single(all(Ingress.class)).getSpec().getRules()) {
            for (HTTPIngressPath path : rule.getHttp().getPaths()) {
                Service routed = get(Service.class, path.getBackend().getService().getName());
                assertFalse(selects(routed, internalPods), "the Ingress routes " + path.getPath() + " to the internal pool");
            }
        }

        NetworkPolicy policy = all(NetworkPolicy.class).stream()
                .filter(p -> internalPods.entrySet().containsAll(p.getSpec().getPodSelector().getMatchLabels().entrySet()))
                .reduce((a, b) -> fail("two policies for the internal pool"))
                .orElseThrow(() -> new AssertionError("no NetworkPolicy on the internal solver pool"));
        assertEquals(List.of("Ingress"), policy.getSpec().getPolicyTypes());
        Map<String, String> gamePods = get(Deployment.class, "game-service").getSpec().getTemplate().getMetadata()
                .getLabels();
        var from = single(single(policy.getSpec().getIngress()).getFrom());
        assertNotNull(from.getPodSelector(), "admitted by pod, not by namespace or address");
        assertTrue(gamePods.entrySet().containsAll(from.getPodSelector().getMatchLabels().entrySet()),
                "game-service's pods are admitted");
        assertFalse(publicPods.entrySet().containsAll(from.getPodSelector().getMatchLabels().entrySet()),
                "the public pool's pods are not");
    }

    /**
     * Only PostgreSQL's clients reach its port (game-service, leaderboard-service, Keycloak): no other pod, such as
     * the public solver pool or Kafka, can even try a password.
     */
    @Test
    void onlyTheDatabaseClientsReachPostgres() {
        Map<String, String> postgresPods = get(StatefulSet.class, "postgres").getSpec().getTemplate().getMetadata()
                .getLabels();
        NetworkPolicy policy = all(NetworkPolicy.class).stream()
                .filter(p -> postgresPods.entrySet()
                        .containsAll(p.getSpec().getPodSelector().getMatchLabels().entrySet()))
                .reduce((a, b) -> fail("two policies for PostgreSQL"))
                .orElseThrow(() -> new AssertionError("no NetworkPolicy on PostgreSQL"));
        assertEquals(List.of("Ingress"), policy.getSpec().getPolicyTypes());
        var rule = single(policy.getSpec().getIngress());
        assertEquals("postgres", single(rule.getPorts()).getPort().getStrVal());
        Set<String> admitted = new TreeSet<>();
        for (var from : rule.getFrom()) {
            assertNotNull(from.getPodSelector(), "admitted by pod, not by namespace or address");
            assertNull(from.getNamespaceSelector(), "this namespace only");
            for (Deployment d : all(Deployment.class)) {
                if (d.getSpec().getTemplate().getMetadata().getLabels().entrySet()
                        .containsAll(from.getPodSelector().getMatchLabels().entrySet())) {
                    admitted.add(d.getMetadata().getName());
                }
            }
        }
        assertEquals(Set.of("game-service", "keycloak", "leaderboard-service"), admitted);
    }

    /** Whether the service's selector picks pods with these labels. */
    private static boolean selects(Service service, Map<String, String> podLabels) {
        return podLabels.entrySet().containsAll(service.getSpec().getSelector().entrySet());
    }

    /**
     * A drain of a node or an upgrade of the cluster (voluntary disruptions) never takes every replica of a scaled
     * service at once: each has a PodDisruptionBudget over its pods that lets one go at a time.
     */
    @Test
    void everyScaledServiceLosesOnePodAtATimeToADrain() {
        List<PodDisruptionBudget> budgets = all(PodDisruptionBudget.class);
        for (HorizontalPodAutoscaler hpa : all(HorizontalPodAutoscaler.class)) {
            String target = hpa.getSpec().getScaleTargetRef().getName();
            Map<String, String> pods = get(Deployment.class, target).getSpec().getTemplate().getMetadata().getLabels();
            List<PodDisruptionBudget> covering = budgets.stream()
                    .filter(b -> pods.entrySet().containsAll(b.getSpec().getSelector().getMatchLabels().entrySet()))
                    .toList();
            assertEquals(1, covering.size(), "disruption budgets over the pods of " + target + ": " + covering);
            PodDisruptionBudget budget = covering.get(0);
            assertNull(budget.getSpec().getMinAvailable(), target + ": minAvailable would block drains at one pod");
            assertEquals(new IntOrString(1), budget.getSpec().getMaxUnavailable(), target);
            assertTrue(hpa.getSpec().getMinReplicas() >= 2, target + ": one pod left would be all of it");
        }
        assertEquals(all(HorizontalPodAutoscaler.class).size(), budgets.size(), "a budget per scaled service");
    }

    /**
     * A pod being stopped (a rollout, a scale-down, a drain) keeps serving, with readiness DOWN, until its removal
     * from the Service's endpoints has reached every node and the Ingress: every Deployment of a service module has
     * a shutdown delay (built in: {@code quarkus.shutdown.delay-enabled}) within its grace period, beside the stop's
     * own drain (leaderboard-service's batch in store, up to 20 s; game-service's last outbox batch, up to 10 s).
     */
    /** The Deployments that run a service module's image: game, leaderboard and the two solver pools. */
    private static List<Deployment> serviceDeployments() {
        Set<String> images = services().stream().map(ServiceModule::image).collect(Collectors.toSet());
        List<Deployment> deployments = all(Deployment.class).stream()
                .filter(d -> images.contains(single(d.getSpec().getTemplate().getSpec().getContainers()).getImage()))
                .toList();
        assertEquals(4, deployments.size(), "game, leaderboard and the two solver pools");
        return deployments;
    }

    /**
     * Behind the Ingress every request comes from the controller: each service keys an anonymous caller by the address
     * the controller forwards (solver-service's per-client rate limit, game-service's open games and sockets), and
     * trusts only the cluster's own addresses to set it. Without it the whole public is one client.
     */
    @Test
    void everyServiceKeysCallersByTheAddressTheIngressForwardsAndTrustsOnlyTheCluster() {
        List<Deployment> deployments = serviceDeployments();
        for (Deployment d : deployments) {
            String name = d.getMetadata().getName();
            Map<String, String> env = environment(single(d.getSpec().getTemplate().getSpec().getContainers()));
            assertEquals("true", env.get("QUARKUS_HTTP_PROXY_PROXY_ADDRESS_FORWARDING"), name);
            assertEquals("true", env.get("QUARKUS_HTTP_PROXY_ALLOW_X_FORWARDED"), name);
            String trusted = env.get("QUARKUS_HTTP_PROXY_TRUSTED_PROXIES");
            assertNotNull(trusted, name + " would take X-Forwarded-For from anyone");
            for (String range : trusted.split(",")) {
                assertTrue(range.startsWith("10.") || range.startsWith("172.16.") || range.startsWith("192.168."),
                        name + ": " + range + " is not a private range");
            }
        }
    }

    @Test
    void everyServicePodLeavesItsServiceBeforeItStopsServing() {
        services().forEach(m -> assertEquals("true", m.properties().getProperty("quarkus.shutdown.delay-enabled"),
                m + ": without quarkus.shutdown.delay-enabled at build time, a delay is ignored"));
        List<Deployment> deployments = serviceDeployments();
        for (Deployment d : deployments) {
            String name = d.getMetadata().getName();
            String delay = environment(single(d.getSpec().getTemplate().getSpec().getContainers()))
                    .get("QUARKUS_SHUTDOWN_DELAY");
            assertNotNull(delay, name + " stops taking requests the moment it is told to stop");
            long seconds = Duration.parse("PT" + delay.toUpperCase()).toSeconds();
            assertTrue(seconds >= 5, name + ": a delay of " + delay + " is shorter than endpoints take to propagate");
            Long grace = d.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
            long graceSeconds = grace == null ? 30 : grace;
            // 20 s for requests in flight; leaderboard-service's drain of its batch as configured, were it longer
            long drain = name.equals("leaderboard-service")
                    ? Math.max(20, ServiceModule.leaderboardShutdownDrain().toSeconds()) : 20;
            assertTrue(graceSeconds >= seconds + drain, name + ": grace period " + graceSeconds + " s for a delay of "
                    + delay + " and a drain of up to " + drain + " s");
        }
    }

    /** Its replicas are one consumer group: at least 2, and never more than game-finished has partitions. */
    @Test
    void leaderboardRunsTwoReplicasAndScalesUpToThePartitions() {
        HorizontalPodAutoscaler hpa = get(HorizontalPodAutoscaler.class, "leaderboard-service");
        assertTrue(hpa.getSpec().getMinReplicas() >= 2, "min replicas");
        assertTrue(hpa.getSpec().getMaxReplicas() <= KafkaAccess.load().topics().get("game-finished"),
                "more replicas than partitions of game-finished would idle");
    }

    @Test
    void kafkaTakesSaslLoginsOnlyAndDeniesWhatNoAclAllows() {
        Container kafka = single(get(StatefulSet.class, "kafka").getSpec().getTemplate().getSpec().getContainers());
        Map<String, String> env = environment(kafka);
        for (String entry : env.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP").split(",")) {
            assertTrue(entry.split(":")[1].startsWith("SASL_"), "listener without SASL: " + entry);
        }
        assertEquals("org.apache.kafka.metadata.authorizer.StandardAuthorizer", env.get("KAFKA_AUTHORIZER_CLASS_NAME"));
        assertEquals("User:admin", env.get("KAFKA_SUPER_USERS"));
        assertEquals("false", env.get("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND"));
        assertEquals("6", env.get("KAFKA_NUM_PARTITIONS"));
        assertEquals("<secret>", env.get("BLOC_KAFKA_ADMIN_PASSWORD"));
        assertTrue(env.get("KAFKA_LISTENER_NAME_INTERNAL_PLAIN_SASL_JAAS_CONFIG")
                .contains("user_admin=\"$(BLOC_KAFKA_ADMIN_PASSWORD)\""), "PLAIN knows admin only, its password a Secret");
        assertEquals(List.of(9092), get(Service.class, "kafka").getSpec().getPorts().stream()
                .map(ServicePort::getPort).toList(), "the controller port is not a Service port");
    }

    /**
     * The services' bootstrap name resolves while the broker's pod is not ready or not there: a headless Service's
     * name then resolves to nothing, and a service replica started meanwhile fails to start (the Kafka client refuses
     * a bootstrap list with no address). The StatefulSet's own Service and serviceName stay as they were (they cannot
     * be changed in place on a running cluster); the broker's user may write a root-owned volume.
     */
    @Test
    void kafkasBootstrapNameAlwaysResolvesAndItsDataIsOnItsVolume() {
        String bootstrap = get(ConfigMap.class, "bloc-config").getData().get("KAFKA_BOOTSTRAP_SERVERS").split(":")[0];
        assertNotEquals("None", get(Service.class, bootstrap).getSpec().getClusterIP(), bootstrap + " is not headless");
        StatefulSet broker = get(StatefulSet.class, "kafka");
        assertEquals("kafka", broker.getSpec().getServiceName());
        assertEquals("None", get(Service.class, "kafka").getSpec().getClusterIP(), "the StatefulSet's own, as before");
        assertEquals(1000L, broker.getSpec().getTemplate().getSpec().getSecurityContext().getFsGroup(),
                "the image's appuser may write a volume a provisioner made root-owned");
        Container kafka = single(broker.getSpec().getTemplate().getSpec().getContainers());
        // below the volume's root, not at it: a new ext4 volume holds lost+found there, which stops the broker
        assertEquals(single(kafka.getVolumeMounts()).getMountPath() + "/logs", environment(kafka).get("KAFKA_LOG_DIRS"));
        String heap = environment(kafka).get("KAFKA_HEAP_OPTS");
        assertEquals("-Xms1g -Xmx1g", heap, "the heap the memory request is read against");
        assertEquals(kafka.getResources().getLimits().get("memory"), kafka.getResources().getRequests().get("memory"),
                "the broker asks the memory it uses: a heap of 1 GiB from the start");
        assertEquals(bootstrap + ":9092", environment(single(get(Job.class, "kafka-setup").getSpec().getTemplate()
                .getSpec().getContainers())).get("KAFKA_BOOTSTRAP"));
    }

    /**
     * A cluster made before its data moved below the volume's root gets it moved there before the broker starts, once
     * (a move cut short is finished); a new volume is left alone. The init container's script, run on directories made
     * as such volumes are.
     */
    @Test
    void kafkasDataAtTheVolumesRootIsMovedBelowItBeforeTheBrokerStarts() throws Exception {
        StatefulSet broker = get(StatefulSet.class, "kafka");
        Container move = single(broker.getSpec().getTemplate().getSpec().getInitContainers());
        String mount = single(move.getVolumeMounts()).getMountPath();
        assertEquals(mount + "/logs", environment(single(broker.getSpec().getTemplate().getSpec().getContainers()))
                .get("KAFKA_LOG_DIRS"));
        assertEquals(List.of("bash", "-c"), move.getCommand());

        Path old = Files.createTempDirectory("kafka-volume");
        Files.createDirectories(old.resolve("lost+found"));
        Files.writeString(old.resolve("meta.properties"), "node.id=1\n");
        Files.createDirectories(old.resolve("game-finished-0"));
        Files.writeString(old.resolve("game-finished-0").resolve("00000000000000000000.log"), "records");
        Files.writeString(old.resolve(".lock"), "");
        String script = single(move.getArgs());
        assertEquals(0, runIn(script, mount, old));
        assertEquals(Set.of("logs", "lost+found"), entries(old));
        assertEquals(Set.of("meta.properties", "game-finished-0", ".lock"), entries(old.resolve("logs")));
        assertEquals("records", Files.readString(old.resolve("logs/game-finished-0/00000000000000000000.log")));
        assertEquals(0, runIn(script, mount, old), "once moved, left as it is");
        assertEquals(Set.of("meta.properties", "game-finished-0", ".lock"), entries(old.resolve("logs")));

        Path fresh = Files.createTempDirectory("kafka-volume");
        Files.createDirectories(fresh.resolve("lost+found"));
        assertEquals(0, runIn(script, mount, fresh));
        assertEquals(Set.of("lost+found"), entries(fresh), "a new volume: the broker makes logs/ itself");

        Path cut = Files.createTempDirectory("kafka-volume");
        Files.createDirectories(cut.resolve("logs.moving"));
        Files.writeString(cut.resolve("logs.moving").resolve("meta.properties"), "node.id=1\n");
        Files.createDirectories(cut.resolve("game-events-0"));
        assertEquals(0, runIn(script, mount, cut));
        assertEquals(Set.of("logs"), entries(cut));
        assertEquals(Set.of("meta.properties", "game-events-0"), entries(cut.resolve("logs")), "a move cut short");

        Path both = Files.createTempDirectory("kafka-volume");
        Files.createDirectories(both.resolve("logs"));
        Files.writeString(both.resolve("logs").resolve("meta.properties"), "node.id=1\n");
        Files.writeString(both.resolve("meta.properties"), "node.id=1\n");
        assertEquals(0, runIn(script, mount, both), "the broker still starts");
        assertEquals(Set.of("logs", "meta.properties"), entries(both), "two logs are not merged by the script");
    }

    private static int runIn(String script, String mount, Path volume) throws Exception {
        Process run = new ProcessBuilder("bash", "-c", script.replace(mount, volume.toString()))
                .redirectErrorStream(true).start();
        run.getInputStream().readAllBytes();
        return run.waitFor();
    }

    private static Set<String> entries(Path dir) throws IOException {
        try (var list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    /** The Job applies the same access.conf as the local stack, with the same script as docker compose. */
    @Test
    void kafkaSetupJobAppliesTheAccessFile() throws IOException {
        ConfigMap files = get(ConfigMap.class, "kafka-setup");
        assertEquals(Files.readString(ServiceModule.ROOT.resolve("platform/kafka/kafka-setup.sh")),
                files.getData().get("kafka-setup.sh"), "k8s/kafka.yaml holds a copy of platform/kafka/kafka-setup.sh");
        assertEquals(Files.readString(KafkaAccess.FILE), files.getData().get("access.conf"),
                "k8s/kafka.yaml holds a copy of platform/kafka/access.conf");
        // deleted once finished, so that the next apply runs it again (a Job kept is "unchanged" for ever)
        assertEquals(60, get(Job.class, "kafka-setup").getSpec().getTtlSecondsAfterFinished());
        PodSpec pod = get(Job.class, "kafka-setup").getSpec().getTemplate().getSpec();
        Container setup = single(pod.getContainers());
        assertEquals(single(get(StatefulSet.class, "kafka").getSpec().getTemplate().getSpec().getContainers())
                .getImage(), setup.getImage());
        assertEquals(List.of("bash", "/bloc/kafka/kafka-setup.sh"), setup.getCommand());
        assertTrue(setup.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/bloc/kafka")));
        assertEquals("kafka-setup", pod.getVolumes().stream().filter(v -> v.getConfigMap() != null)
                .map(v -> v.getConfigMap().getName()).findFirst().orElseThrow());
        Map<String, String> env = environment(setup);
        assertEquals("kafka-bootstrap:9092", env.get("KAFKA_BOOTSTRAP"));
        for (String user : Stream.concat(Stream.of("admin"), KafkaAccess.load().users().stream()).toList()) {
            assertEquals("<secret>", env.get(KafkaAccess.passwordVariable(user)), user + "'s password from a Secret");
        }
    }

    @ParameterizedTest
    @MethodSource("kafkaClients")
    void serviceLogsInToKafkaAsItsOwnUser(String name) {
        Container container = container(name);
        Map<String, String> env = environment(container);
        assertEquals("SASL_PLAINTEXT", env.get("KAFKA_SECURITY_PROTOCOL"));
        assertEquals("SCRAM-SHA-512", env.get("KAFKA_SASL_MECHANISM"));
        assertEquals("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + name
                + "\" password=\"$(BLOC_KAFKA_PASSWORD)\";", env.get("KAFKA_SASL_JAAS_CONFIG"));
        EnvVar password = container.getEnv().stream().filter(e -> e.getName().equals("BLOC_KAFKA_PASSWORD"))
                .findFirst().orElseThrow();
        assertEquals(KafkaAccess.passwordVariable(name), password.getValueFrom().getSecretKeyRef().getKey());
        assertTrue(container.getEnv().indexOf(password) < container.getEnv().stream()
                .filter(e -> e.getName().equals("KAFKA_SASL_JAAS_CONFIG")).findFirst().map(container.getEnv()::indexOf)
                .orElseThrow(), "$(BLOC_KAFKA_PASSWORD) expands only from a variable defined before it");
    }

    static List<String> kafkaClients() {
        return List.of("game-service", "leaderboard-service");
    }

    /** game-service signs and holds the daily secret, leaderboard-service only checks; all from Secret bloc-signing. */
    @Test
    void signingKeysAndDailySecretComeFromTheirSecret() {
        for (String var : List.of("BLOC_SIGNING_KEY_ID", "BLOC_SIGNING_PRIVATE_KEY", "BLOC_DAILY_SECRET")) {
            assertEquals("bloc-signing", secretOf(container("game-service"), var), var);
        }
        assertEquals("bloc-signing", secretOf(container("leaderboard-service"), "BLOC_SIGNING_PUBLIC_KEYS"));
        for (String name : List.of("leaderboard-service", "solver-service")) {
            Map<String, String> env = environment(container(name));
            assertFalse(env.containsKey("BLOC_SIGNING_PRIVATE_KEY") || env.containsKey("BLOC_DAILY_SECRET"), name);
        }
    }

    /** The committed Secrets are templates: placeholders no service could start with, never a real key. */
    @Test
    void theSigningSecretIsATemplateWithoutRealKeys() throws IOException {
        Map<String, String> data = get(Secret.class, "bloc-signing").getStringData();
        assertEquals(Set.of("BLOC_SIGNING_KEY_ID", "BLOC_SIGNING_PRIVATE_KEY", "BLOC_SIGNING_PUBLIC_KEYS",
                "BLOC_DAILY_SECRET"), data.keySet());
        for (String var : List.of("BLOC_SIGNING_PRIVATE_KEY", "BLOC_DAILY_SECRET")) {
            assertTrue(data.get(var).startsWith("REPLACE-ME"), var + " is a placeholder");
            assertThrows(IllegalArgumentException.class, () -> Base64.getDecoder().decode(data.get(var)),
                    var + " is not even base64");
        }
        List<Path> files = new ArrayList<>(manifestFiles());
        files.add(SECRETS_TEMPLATE);
        for (Path file : files) {
            assertFalse(Files.readString(file).contains(DockerComposeTest.ED25519_PKCS8_PREFIX), "a private key in " + file);
        }
    }

    /**
     * The services' client secret is a placeholder the services refuse to start with (PlaceholderSecrets): Keycloak's
     * token endpoint is public through the Ingress, so a value any reader of this repository knows gave anyone the
     * services' token.
     */
    @Test
    void theServicesClientSecretIsAPlaceholderTheServicesRefuse() {
        String secret = get(Secret.class, "bloc-secrets").getStringData().get("QUARKUS_OIDC_CREDENTIALS_SECRET");
        assertTrue(secret.startsWith("REPLACE-ME"), secret);
    }

    /**
     * Keycloak imports the client secret into the realm for good, and its token endpoint is public: it refuses to
     * start with the template's placeholder, the value committed before it, or the local stack's (docker-compose.yml,
     * ./bloc up: published in the committed realm), rather than serve them. The container's script, run with kc.sh
     * standing in. Its probes wait 3 s: a burst of logins keeps its CPU hashing passwords.
     */
    @Test
    void keycloakRefusesToStartWithAPublicClientSecret() throws Exception {
        Container keycloak = container("keycloak");
        assertEquals(List.of("/bin/bash", "-c"), keycloak.getCommand());
        String script = single(keycloak.getArgs()).replace("/opt/keycloak/bin/kc.sh", "echo kc.sh");
        for (Probe probe : List.of(keycloak.getStartupProbe(), keycloak.getLivenessProbe(),
                keycloak.getReadinessProbe())) {
            assertEquals(3, probe.getTimeoutSeconds(), "Keycloak's probes wait 3 s");
        }
        for (String placeholder : List.of("REPLACE-ME-services-client-secret", "replace-me", "change-me-services",
                "bloc-services-secret", "")) {
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true);
            pb.environment().put("BLOC_SERVICES_SECRET", placeholder);
            Process run = pb.start();
            String out = new String(run.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(1, run.waitFor(), placeholder + ": " + out);
            assertFalse(out.contains("kc.sh"), placeholder + ": " + out);
        }
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true);
        pb.environment().put("BLOC_SERVICES_SECRET", "kq3VtY0w8mJ2d1Xo-a-real-one");
        Process run = pb.start();
        String out = new String(run.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, run.waitFor(), out);
        assertEquals("kc.sh start --import-realm --cache=local", out.strip());
    }

    @Test
    void bruteForceProtectionIsOnInBothRealms() throws IOException {
        JsonNode platform = new ObjectMapper().readTree(
                ServiceModule.ROOT.resolve("platform/keycloak/bloc-eclat-realm.json").toFile());
        for (JsonNode realm : List.of(platform, realm())) {
            assertTrue(realm.path("bruteForceProtected").asBoolean(), "bruteForceProtected");
            assertFalse(realm.path("permanentLockout").asBoolean(true), "a temporary lockout, not a permanent one");
            int failures = realm.path("failureFactor").asInt();
            assertTrue(failures >= 3 && failures <= 10, "failureFactor " + failures);
            assertTrue(realm.path("waitIncrementSeconds").asInt() >= 30, "waitIncrementSeconds");
            assertTrue(realm.path("maxFailureWaitSeconds").asInt() >= realm.path("waitIncrementSeconds").asInt());
        }
        assertEquals(bruteForce(platform), bruteForce(realm()), "the cluster realm has the platform's settings");
        // the values docs/platform.md gives: 5 failures, 60 s growing to 15 min, forgotten after 12 h
        assertEquals(5, platform.path("failureFactor").asInt());
        assertEquals(60, platform.path("waitIncrementSeconds").asInt());
        assertEquals(900, platform.path("maxFailureWaitSeconds").asInt());
        assertEquals(12 * 3600, platform.path("maxDeltaTimeSeconds").asInt());
    }

    private static Map<String, JsonNode> bruteForce(JsonNode realm) {
        Map<String, JsonNode> settings = new TreeMap<>();
        for (String key : List.of("bruteForceProtected", "permanentLockout", "failureFactor", "waitIncrementSeconds",
                "maxFailureWaitSeconds", "maxDeltaTimeSeconds", "quickLoginCheckMilliSeconds",
                "minimumQuickLoginWaitSeconds")) {
            settings.put(key, realm.get(key));
        }
        return settings;
    }

    /**
     * Each service's migrations run in an init container of its own image ({@code QUARKUS_INIT_AND_EXIT}: game-service's
     * ReplicasIT and leaderboard-service's RestartIT run it so), with the service's database settings and the secrets
     * its configuration requires, before the service's container and its startup probe: a long migration inside the
     * probe's 3 minutes was killed and started again. Its pool, before the service's, is within the service's.
     */
    @Test
    void eachServicesMigrationsRunInAnInitContainerOfItsOwnImage() {
        Map<String, List<String>> secrets = Map.of(
                "game-service", List.of("QUARKUS_DATASOURCE_PASSWORD", "BLOC_SIGNING_KEY_ID",
                        "BLOC_SIGNING_PRIVATE_KEY", "BLOC_DAILY_SECRET"),
                "leaderboard-service", List.of("QUARKUS_DATASOURCE_PASSWORD", "BLOC_SIGNING_PUBLIC_KEYS"));
        secrets.forEach((service, keys) -> {
            Container main = container(service);
            Container migrate = single(get(Deployment.class, service).getSpec().getTemplate().getSpec()
                    .getInitContainers());
            assertEquals(main.getImage(), migrate.getImage(), service);
            Map<String, String> env = environment(migrate);
            Map<String, String> mainEnv = environment(main);
            assertEquals("true", env.get("QUARKUS_INIT_AND_EXIT"), service);
            for (String key : List.of("QUARKUS_DATASOURCE_JDBC_URL", "QUARKUS_DATASOURCE_USERNAME")) {
                assertEquals(mainEnv.get(key), env.get(key), service + " " + key);
            }
            for (String key : keys) {
                assertEquals(secretKeyOf(main, key), secretKeyOf(migrate, key), service + " " + key);
            }
            assertTrue(Integer.parseInt(env.get("QUARKUS_DATASOURCE_JDBC_MAX_SIZE"))
                    <= Integer.parseInt(mainEnv.get("QUARKUS_DATASOURCE_JDBC_MAX_SIZE")), service);
            assertNotNull(migrate.getResources().getLimits(), service + " limits");
        });
    }

    /** The Secret and key {@code var} of the container comes from, as {@code secret/key}. */
    private static String secretKeyOf(Container container, String var) {
        secretOf(container, var);
        var ref = container.getEnv().stream().filter(e -> e.getName().equals(var)).findFirst().orElseThrow()
                .getValueFrom().getSecretKeyRef();
        return ref.getName() + "/" + ref.getKey();
    }

    private static String secretOf(Container container, String var) {
        EnvVar env = container.getEnv().stream().filter(e -> e.getName().equals(var)).findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " lacks " + var));
        assertNotNull(env.getValueFrom(), var + " is not written in the manifest");
        return env.getValueFrom().getSecretKeyRef().getName();
    }

    @Test
    void infrastructureIsDeclared() {
        Container postgres = single(get(StatefulSet.class, "postgres").getSpec().getTemplate().getSpec()
                .getContainers());
        assertTrue(postgres.getImage().startsWith("postgres:"));
        assertServicePort("postgres", 5432);

        Container kafka = single(get(StatefulSet.class, "kafka").getSpec().getTemplate().getSpec().getContainers());
        assertTrue(kafka.getImage().startsWith("apache/kafka:"));
        assertTrue(environment(kafka).get("KAFKA_PROCESS_ROLES").contains("controller"), "Kafka runs in KRaft mode");
        assertServicePort("kafka", 9092);

        Container keycloak = single(get(Deployment.class, "keycloak").getSpec().getTemplate().getSpec()
                .getContainers());
        assertTrue(keycloak.getImage().startsWith("quay.io/keycloak/keycloak:"));
        assertTrue(String.join(" ", keycloak.getArgs()).contains("kc.sh start --import-realm"));
        assertTrue(keycloak.getVolumeMounts().stream()
                .anyMatch(m -> m.getMountPath().equals("/opt/keycloak/data/import")), "realm mounted for import");
        assertServicePort("keycloak", 8080);
        for (Container c : List.of(postgres, kafka, keycloak)) {
            assertNotNull(c.getReadinessProbe(), c.getName() + " readiness");
            assertNotNull(c.getResources().getLimits(), c.getName() + " limits");
        }
    }

    /**
     * Every connection pool at its most, each service at its autoscaler's maximum and a rollout on top (a new pod of
     * the surge starting while the old one it replaced still drains with its pool open: a terminating pod does not
     * count against maxSurge), fits in PostgreSQL's max_connections less the 3 it keeps for superusers, with room for
     * an administrator: the services' default pools (20 each, Keycloak's 100) at 6
     * replicas were 340 against PostgreSQL's default 100, so a flood that scaled them out made every new connection
     * fail, Keycloak's too; and with the default surge (25%, rounded up: two pods at 6) a rollout at the maximum needed
     * 212 against 197 (an operator's review).
     */
    @Test
    void everyConnectionPoolAtItsMostFitsInPostgres() {
        List<String> args = single(get(StatefulSet.class, "postgres").getSpec().getTemplate().getSpec().getContainers())
                .getArgs();
        int max = args.stream().filter(a -> a.startsWith("max_connections=")).findFirst()
                .map(a -> Integer.parseInt(a.substring("max_connections=".length())))
                .orElseThrow(() -> new AssertionError("max_connections is set: " + args));
        int pools = 0;
        // each pod's connections outside its pool (service-common's OwnConnection): readiness's, and game-service's
        // race heartbeat's
        Map<String, Integer> ownConnections = Map.of("game-service", 2, "leaderboard-service", 1);
        for (String service : List.of("game-service", "leaderboard-service")) {
            String size = environment(container(service)).get("QUARKUS_DATASOURCE_JDBC_MAX_SIZE");
            assertNotNull(size, service + "'s pool is sized");
            // a terminating pod's grace period (30 s by default) within minReadySeconds: one drains at a time
            Deployment deployment = get(Deployment.class, service);
            Long grace = deployment.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
            Integer minReady = deployment.getSpec().getMinReadySeconds();
            assertTrue(minReady != null && minReady >= (grace == null ? 30 : grace), service + ": minReadySeconds "
                    + minReady + " below the grace period, so more than one old pod could drain at once");
            int pods = get(HorizontalPodAutoscaler.class, service).getSpec().getMaxReplicas() + 2 * surge(service);
            pools += pods * (Integer.parseInt(size) + ownConnections.get(service));
        }
        String keycloak = environment(container("keycloak")).get("KC_DB_POOL_MAX_SIZE");
        assertNotNull(keycloak, "Keycloak's pool is sized");
        pools += (get(Deployment.class, "keycloak").getSpec().getReplicas() + surge("keycloak"))
                * Integer.parseInt(keycloak);
        int superuserReserved = 3; // PostgreSQL's superuser_reserved_connections, which k8s/postgres.yaml keeps
        assertTrue(pools + superuserReserved + 10 <= max,
                pools + " connections at most during a rollout, against max_connections " + max);
    }

    /** The pods a rollout of the Deployment may start beyond its count: its maxSurge, a number (never a percentage). */
    private static int surge(String deployment) {
        DeploymentStrategy strategy = get(Deployment.class, deployment).getSpec().getStrategy();
        assertNotNull(strategy, deployment + " says its rollout's surge: the default is 25%, rounded up");
        IntOrString surge = strategy.getRollingUpdate().getMaxSurge();
        assertNotNull(surge.getIntVal(), deployment + "'s maxSurge is a number of pods: " + surge);
        return surge.getIntVal();
    }

    /**
     * Every JVM container leaves room beside its heap: the images' start script gives the heap a share of the
     * container's memory limit (JAVA_MAX_MEM_RATIO, 80% by default in these images), and a pod over its limit is
     * killed by the kernel with no Java error and no heap dump; metaspace, threads' stacks and the direct buffers of
     * Netty and Kafka need about 200 MiB beside the heap.
     */
    @Test
    void everyJvmLeavesRoomBesideItsHeapWithinItsMemoryLimit() {
        for (Deployment d : all(Deployment.class)) {
            if (d.getMetadata().getName().equals("keycloak")) {
                continue; // not the run-java image: Keycloak sizes its own heap (KC_HEAP / JAVA_OPTS_KC_HEAP)
            }
            Container c = single(d.getSpec().getTemplate().getSpec().getContainers());
            String ratio = c.getEnv().stream().filter(e -> e.getName().equals("JAVA_MAX_MEM_RATIO")).findFirst()
                    .map(EnvVar::getValue).orElseThrow(() -> new AssertionError(d.getMetadata().getName()
                            + " sets JAVA_MAX_MEM_RATIO: the image's default gives the heap 80% of the limit"));
            long limit = Quantity.getAmountInBytes(c.getResources().getLimits().get("memory")).longValueExact();
            long heap = limit * Integer.parseInt(ratio) / 100;
            assertTrue(limit - heap >= 200L << 20, d.getMetadata().getName() + ": " + ((limit - heap) >> 20)
                    + " MiB beside a heap of " + (heap >> 20) + " MiB");
        }
    }

    @Test
    void everyConfigMapAndSecretReferenceResolves() {
        List<PodSpec> pods = new ArrayList<>();
        all(Deployment.class).forEach(d -> pods.add(d.getSpec().getTemplate().getSpec()));
        all(StatefulSet.class).forEach(s -> pods.add(s.getSpec().getTemplate().getSpec()));
        all(Job.class).forEach(j -> pods.add(j.getSpec().getTemplate().getSpec()));
        for (PodSpec pod : pods) {
            for (Container c : pod.getContainers()) {
                environment(c);
            }
            for (Volume v : pod.getVolumes() == null ? List.<Volume>of() : pod.getVolumes()) {
                if (v.getConfigMap() != null) {
                    get(ConfigMap.class, v.getConfigMap().getName());
                }
            }
        }
    }

    @Test
    void clusterRealmHasTheRolesAndClientsOfThePlatformRealm() throws IOException {
        JsonNode cluster = realm();
        JsonNode platform = new ObjectMapper().readTree(
                ServiceModule.ROOT.resolve("platform/keycloak/bloc-eclat-realm.json").toFile());
        assertEquals(platform.get("realm"), cluster.get("realm"));
        assertEquals(roleNames(platform), roleNames(cluster));
        assertTrue(roleNames(cluster).containsAll(Set.of("player", "admin")));
        assertEquals(clients(platform), clients(cluster));
        for (JsonNode user : cluster.path("users")) {
            assertTrue(user.has("serviceAccountClientId"), "no demo user in the cluster: " + user.get("username"));
        }
        JsonNode services = clientNamed(cluster, "bloc-services");
        assertEquals("${BLOC_SERVICES_SECRET}", services.get("secret").asText());
        Container keycloak = single(get(Deployment.class, "keycloak").getSpec().getTemplate().getSpec()
                .getContainers());
        EnvVar secret = keycloak.getEnv().stream().filter(e -> e.getName().equals("BLOC_SERVICES_SECRET"))
                .findFirst().orElseThrow();
        assertEquals("QUARKUS_OIDC_CREDENTIALS_SECRET", secret.getValueFrom().getSecretKeyRef().getKey(),
                "Keycloak and the services share the client secret");
    }

    private static JsonNode realm() {
        ConfigMap realm = get(ConfigMap.class, "keycloak-realm");
        try {
            return new ObjectMapper().readTree(single(List.copyOf(realm.getData().values())));
        } catch (IOException e) {
            throw new AssertionError("realm ConfigMap is not JSON", e);
        }
    }

    private static Set<String> roleNames(JsonNode realm) {
        Set<String> names = new TreeSet<>();
        realm.path("roles").path("realm").forEach(r -> names.add(r.get("name").asText()));
        return names;
    }

    private static Map<String, Boolean> clients(JsonNode realm) {
        Map<String, Boolean> clients = new HashMap<>();
        realm.path("clients").forEach(c -> clients.put(c.get("clientId").asText(), c.path("publicClient").asBoolean()));
        return clients;
    }

    private static JsonNode clientNamed(JsonNode realm, String clientId) {
        for (JsonNode c : realm.path("clients")) {
            if (c.get("clientId").asText().equals(clientId)) {
                return c;
            }
        }
        throw new AssertionError("no client " + clientId);
    }

    private static Set<String> databasesCreated() {
        Set<String> names = new HashSet<>();
        Container postgres = single(get(StatefulSet.class, "postgres").getSpec().getTemplate().getSpec()
                .getContainers());
        Map<String, String> env = environment(postgres);
        names.add(env.getOrDefault("POSTGRES_DB", env.get("POSTGRES_USER")));
        names.addAll(databaseOwners().keySet());
        return names;
    }

    /** The databases postgres-init creates, each with its owner ({@code CREATE DATABASE d OWNER r}). */
    private static Map<String, String> databaseOwners() {
        Map<String, String> owners = new TreeMap<>();
        get(ConfigMap.class, "postgres-init").getData().values().forEach(sql -> {
            for (String statement : sql.split(";")) {
                String[] words = statement.trim().split("\\s+");
                if (words.length >= 3 && words[0].equalsIgnoreCase("CREATE") && words[1].equalsIgnoreCase("DATABASE")) {
                    boolean owned = words.length == 5 && words[3].equalsIgnoreCase("OWNER");
                    owners.put(words[2], owned ? words[4] : null);
                }
            }
        });
        return owners;
    }

    /**
     * game-service, leaderboard-service and Keycloak each log in to PostgreSQL as the role that owns their database,
     * with a password of their own, never as the superuser (what each role can reach: DatabaseRolesTest).
     */
    @Test
    void eachDatabaseClientLogsInAsTheOwnerOfItsDatabaseAlone() {
        Map<String, String> owners = databaseOwners();
        String superuser = environment(single(get(StatefulSet.class, "postgres").getSpec().getTemplate().getSpec()
                .getContainers())).get("POSTGRES_USER");
        Set<String> passwordKeys = new HashSet<>();
        Map<String, List<String>> clients = Map.of(
                "game-service", List.of("QUARKUS_DATASOURCE_JDBC_URL", "QUARKUS_DATASOURCE_USERNAME",
                        "QUARKUS_DATASOURCE_PASSWORD"),
                "leaderboard-service", List.of("QUARKUS_DATASOURCE_JDBC_URL", "QUARKUS_DATASOURCE_USERNAME",
                        "QUARKUS_DATASOURCE_PASSWORD"),
                "keycloak", List.of("KC_DB_URL", "KC_DB_USERNAME", "KC_DB_PASSWORD"));
        clients.forEach((name, keys) -> {
            Container container = container(name);
            Map<String, String> env = environment(container);
            String database = URI.create(env.get(keys.get(0)).substring("jdbc:".length())).getPath().substring(1);
            String user = env.get(keys.get(1));
            assertTrue(owners.containsKey(database), name + ": " + database + " is not made by postgres-init");
            assertEquals(owners.get(database), user, name + " logs in as the owner of " + database);
            assertFalse(user.equals(superuser), name + " logs in as the superuser");
            EnvVar password = container.getEnv().stream().filter(v -> v.getName().equals(keys.get(2))).findFirst()
                    .orElseThrow();
            assertTrue(passwordKeys.add(password.getValueFrom().getSecretKeyRef().getKey()),
                    name + " shares a database password");
        });
        assertEquals(Set.copyOf(owners.values()).size(), owners.size(), "one owner per database: " + owners);
    }

    /** Every variable the container gets, resolving ConfigMaps and checking that every Secret key exists. */
    private static Map<String, String> environment(Container container) {
        Map<String, String> env = new HashMap<>();
        for (EnvFromSource from : container.getEnvFrom() == null ? List.<EnvFromSource>of() : container.getEnvFrom()) {
            if (from.getConfigMapRef() != null) {
                env.putAll(get(ConfigMap.class, from.getConfigMapRef().getName()).getData());
            }
            if (from.getSecretRef() != null) {
                get(Secret.class, from.getSecretRef().getName()).getStringData().keySet()
                        .forEach(k -> env.put(k, "<secret>"));
            }
        }
        for (EnvVar var : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
            if (var.getValueFrom() == null) {
                env.put(var.getName(), var.getValue());
            } else if (var.getValueFrom().getSecretKeyRef() != null) {
                var ref = var.getValueFrom().getSecretKeyRef();
                assertTrue(get(Secret.class, ref.getName()).getStringData().containsKey(ref.getKey()),
                        "Secret " + ref.getName() + " has no key " + ref.getKey());
                env.put(var.getName(), "<secret>");
            } else if (var.getValueFrom().getConfigMapKeyRef() != null) {
                var ref = var.getValueFrom().getConfigMapKeyRef();
                String value = get(ConfigMap.class, ref.getName()).getData().get(ref.getKey());
                assertNotNull(value, "ConfigMap " + ref.getName() + " has no key " + ref.getKey());
                env.put(var.getName(), value);
            }
        }
        return env;
    }

    private static void assertProbe(Container container, Probe probe, String path, int port) {
        assertNotNull(probe, container.getName() + " has no probe for " + path);
        HTTPGetAction get = probe.getHttpGet();
        assertNotNull(get, container.getName() + " probe for " + path + " is not HTTP");
        assertEquals(path, get.getPath());
        assertEquals(port, resolve(container, get.getPort()), container.getName() + " probe port for " + path);
    }

    private static void assertServicePort(String host, int port) {
        Service service = get(Service.class, host);
        assertTrue(service.getSpec().getPorts().stream().anyMatch(p -> p.getPort() == port),
                "Service " + host + " has no port " + port);
    }

    private static int containerPort(Container container, String name) {
        return container.getPorts().stream()
                .filter(p -> name.equals(p.getName()))
                .map(ContainerPort::getContainerPort)
                .findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " has no port named " + name));
    }

    private static int resolve(Container container, IntOrString port) {
        return port.getIntVal() != null ? port.getIntVal() : containerPort(container, port.getStrVal());
    }

    private static <T extends HasMetadata> List<T> all(Class<T> type) {
        return resources.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static <T extends HasMetadata> T get(Class<T> type, String name) {
        return all(type).stream()
                .filter(r -> r.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " named " + name + " in k8s/"));
    }

    private static <T> T single(List<T> items) {
        assertEquals(1, items.size(), "expected exactly one of " + items);
        return items.get(0);
    }
}
