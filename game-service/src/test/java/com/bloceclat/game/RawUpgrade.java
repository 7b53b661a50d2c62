package com.bloceclat.game;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A WebSocket upgrade sent as it is over TCP, for what no WebSocket client does: read nothing, answer no ping, send
 * headers or frames a client library would refuse. The socket, and the answer's head (status line and headers).
 */
record RawUpgrade(Socket socket, String head) implements AutoCloseable {

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /**
     * Sends the upgrade of {@code pathAndQuery} with the extra header lines, and reads the answer's head. A receive
     * buffer above 0 is set before connecting (a small one fills with a few frames).
     */
    static RawUpgrade send(URI base, String pathAndQuery, List<String> headers, int receiveBuffer)
            throws IOException {
        Socket s = new Socket();
        if (receiveBuffer > 0) {
            s.setReceiveBufferSize(receiveBuffer);
        }
        s.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5000);
        s.setSoTimeout(10_000);
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        StringBuilder request = new StringBuilder("GET " + pathAndQuery + " HTTP/1.1\r\n")
                .append("Host: ").append(base.getHost()).append(':').append(base.getPort()).append("\r\n")
                .append("Upgrade: websocket\r\nConnection: Upgrade\r\n")
                .append("Sec-WebSocket-Key: ").append(Base64.getEncoder().encodeToString(nonce)).append("\r\n")
                .append("Sec-WebSocket-Version: 13\r\n");
        headers.forEach(h -> request.append(h).append("\r\n"));
        s.getOutputStream().write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break; // closed: what came is the answer
            }
            head.append((char) b);
        }
        return new RawUpgrade(s, head.toString());
    }

    /** The answer's status line. */
    String status() {
        int end = head.indexOf("\r\n");
        return end < 0 ? head : head.substring(0, end);
    }

    /** The next frame's text (a short unmasked frame, as servers send). */
    String frame() throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        in.readUnsignedByte(); // FIN and opcode
        int length = in.readUnsignedByte() & 0x7f;
        if (length == 126) {
            length = in.readUnsignedShort();
        }
        byte[] text = new byte[length];
        in.readFully(text);
        return new String(text, StandardCharsets.UTF_8);
    }
}
