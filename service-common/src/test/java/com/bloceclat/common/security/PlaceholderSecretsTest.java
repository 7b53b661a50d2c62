package com.bloceclat.common.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class PlaceholderSecretsTest {

    @Test
    void aClientSecretLeftAtTheTemplatesPlaceholderStopsTheStart() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new PlaceholderSecrets(Optional.of("REPLACE-ME-services-client-secret")));
        assertTrue(e.getMessage().contains("QUARKUS_OIDC_CREDENTIALS_SECRET"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> new PlaceholderSecrets(Optional.of("  replace-me ")));
        assertThrows(IllegalStateException.class, () -> new PlaceholderSecrets(Optional.of("change-me-services")),
                "the value k8s/config.yaml committed before");
        new PlaceholderSecrets(Optional.of("kq3VtY0w8mJ2d1Xo"));
        new PlaceholderSecrets(Optional.empty());
        assertFalse(PlaceholderSecrets.placeholder(null));
    }
}
