// A new Ed25519 key pair for game-service's signature on game-finished, when openssl lacks Ed25519.
//   java platform/lib/Ed25519KeyPair.java  ->  "<base64 PKCS#8 private key> <base64 X.509 public key>"
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;

public class Ed25519KeyPair {
    public static void main(String[] args) throws Exception {
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        Base64.Encoder b64 = Base64.getEncoder();
        System.out.println(b64.encodeToString(pair.getPrivate().getEncoded()) + " "
                + b64.encodeToString(pair.getPublic().getEncoded()));
    }
}
