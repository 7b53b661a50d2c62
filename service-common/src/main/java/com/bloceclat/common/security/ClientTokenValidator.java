package com.bloceclat.common.security;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.JwtContext;
import org.jose4j.jwt.consumer.Validator;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.Unremovable;

/**
 * Applies {@link TokenPolicy} to every bearer token a service verifies, as a Jose4j {@link Validator} that Quarkus
 * OIDC runs after the signature, issuer and expiry checks and before the caller's identity exists. It therefore covers
 * every way a token reaches a service: the {@code Authorization} header of a REST call and the bearer token a
 * browser's WebSocket carries in its subprotocol (Quarkus turns it into the same header). A refused token makes the
 * request fail authentication: 401 (with a problem body on REST calls, {@code ProblemMappers}), never an identity.
 * Each refusal counts in {@code bloc.auth.refused} (tag {@code reason}) and is logged at DEBUG.
 */
@Unremovable
@ApplicationScoped
public class ClientTokenValidator implements Validator {

    private static final Logger LOG = Logger.getLogger(ClientTokenValidator.class);

    private final TokenPolicy policy;
    private final MeterRegistry registry;

    @Inject
    public ClientTokenValidator(@ConfigProperty(name = "bloc.auth.clients", defaultValue = "web-ui,bloc-services")
    List<String> clients, MeterRegistry registry) {
        this.policy = TokenPolicy.of(clients);
        this.registry = registry;
    }

    @Override
    public String validate(JwtContext context) throws MalformedClaimException {
        Optional<TokenPolicy.Refusal> refusal = policy.check(context.getJwtClaims().getClaimsMap());
        if (refusal.isEmpty()) {
            return null;
        }
        TokenPolicy.Refusal r = refusal.get();
        registry.counter("bloc.auth.refused", "reason", r.reason().name()).increment();
        LOG.debugf("bearer token refused: %s", r.detail());
        return "token refused: " + r.detail();
    }
}
