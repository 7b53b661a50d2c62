package com.bloceclat.game.messaging;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.bloceclat.common.events.SignedMessage;
import com.bloceclat.game.config.IntegrityConfig;

import io.quarkus.runtime.Startup;

/**
 * Signs what game-service vouches for ({@code game-finished}) with its Ed25519 key, {@code bloc.signing.key-id} and
 * {@code bloc.signing.private-key}, into a {@link SignedMessage} envelope.
 *
 * <p>Guarantees: built at start, so a replica with a missing or malformed key does not start (the error names the key);
 * every envelope it makes carries the key id and verifies with that key's public half over the exact message text.
 * The private key is kept in memory only and never logged.
 */
@Startup
@Singleton
public class ResultSigner {

    private final SignedMessage.Signer signer;

    @Inject
    public ResultSigner(IntegrityConfig.Signing config) {
        try {
            signer = SignedMessage.Signer.of(config.keyId().strip(), config.privateKey());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("bloc.signing.key-id / bloc.signing.private-key (BLOC_SIGNING_KEY_ID, "
                    + "BLOC_SIGNING_PRIVATE_KEY): " + e.getMessage() + "; make a key with `openssl genpkey -algorithm "
                    + "ed25519 -outform DER | base64 -w0`", e);
        }
    }

    /** The id of the key that signs. */
    public String keyId() {
        return signer.keyId();
    }

    /** The envelope's JSON text for {@code message}. */
    public String sign(String message) {
        return signer.sign(message);
    }
}
