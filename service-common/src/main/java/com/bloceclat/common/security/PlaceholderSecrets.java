package com.bloceclat.common.security;

import java.util.Locale;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.Startup;

/**
 * Refuses to start a service whose OIDC client secret is still the committed template's placeholder
 * (k8s/config.yaml): the repository is public, and Keycloak's token endpoint is reached through the Ingress, so
 * whoever read the template could get the services' account token (the {@code service} role: the solver's reserved
 * workers and no rate limit). Checked at start-up, so a pod so configured never becomes ready.
 */
@Startup
@ApplicationScoped
public class PlaceholderSecrets {

    /** How every committed template's placeholder begins. */
    public static final String PLACEHOLDER = "REPLACE-ME";

    @Inject
    public PlaceholderSecrets(@ConfigProperty(name = "quarkus.oidc.credentials.secret") Optional<String> clientSecret) {
        refuse("quarkus.oidc.credentials.secret (QUARKUS_OIDC_CREDENTIALS_SECRET)", clientSecret);
    }

    /** The services' client secret k8s/config.yaml committed before its placeholder: as public. */
    static final String COMMITTED_BEFORE = "change-me-services";

    /** Whether {@code value} is a template's placeholder. */
    public static boolean placeholder(String value) {
        return value != null && value.strip().toUpperCase(Locale.ROOT).startsWith(PLACEHOLDER);
    }

    static void refuse(String name, Optional<String> value) {
        if (value.isPresent() && (placeholder(value.get()) || value.get().strip().equals(COMMITTED_BEFORE))) {
            throw new IllegalStateException(name + " is still the template's placeholder: set a secret of your own "
                    + "(the same in Keycloak's bloc-services client), for example `openssl rand -base64 32`; whoever "
                    + "has read the template could get the services' token");
        }
    }
}
