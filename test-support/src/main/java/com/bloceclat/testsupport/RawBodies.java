package com.bloceclat.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Request bodies sent over TCP as no HTTP client library sends them.
 *
 * <ul>
 * <li>{@link #stalled}: uploads that send part of their body and then stall, as a slow client or a slowloris does, open
 * until closed. Each service's test opens more of them than the service has worker threads, then checks that a request
 * served on a worker thread is still answered: Quarkus REST reads a blocking endpoint's body on its worker thread, and a
 * stalled one held the thread until the read timed out.</li>
 * <li>{@link #chunked}: a body in chunks, with no length for the server to judge it by before reading it.</li>
 * <li>{@link #get}: a request target as written, not encoded: one no client library would send, such as a malformed
 * {@code %} escape.</li>
 * </ul>
 */
public final class RawBodies implements AutoCloseable {

    private final List<Socket> sockets = new ArrayList<>();

    private RawBodies() {
    }

    /**
     * Opens {@code count} POSTs of {@code path} on localhost:{@code port}, each declaring a JSON body of
     * {@code declared} bytes and sending the first {@code sent} of them.
     */
    public static RawBodies stalled(int port, String path, int count, int declared, int sent) {
        return stalled(port, path, count, declared, sent, i -> null);
    }

    /** As {@link #stalled(int, String, int, int, int)}, the i-th with {@code authorization.apply(i)}, if not null. */
    public static RawBodies stalled(int port, String path, int count, int declared, int sent,
            IntFunction<String> authorization) {
        RawBodies opened = new RawBodies();
        byte[] part = new byte[sent];
        Arrays.fill(part, (byte) ' ');
        part[0] = '{';
        try {
            for (int i = 0; i < count; i++) {
                String auth = authorization.apply(i);
                byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: localhost:" + port + "\r\n"
                        + "Content-Type: application/json\r\n" + (auth == null ? "" : "Authorization: " + auth + "\r\n")
                        + "Content-Length: " + declared + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                Socket s = new Socket();
                opened.sockets.add(s);
                s.connect(new InetSocketAddress("localhost", port), 5_000);
                OutputStream out = s.getOutputStream();
                out.write(head);
                out.write(part);
                out.flush();
            }
        } catch (IOException e) {
            opened.close();
            throw new UncheckedIOException(e);
        }
        return opened;
    }

    /**
     * POSTs {@code body} to {@code path} on localhost:{@code port} in chunks of 4K, and answers the status line and
     * the answer's head and body as they came, up to the server's close or 10 s.
     */
    public static String chunked(int port, String path, byte[] body) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("localhost", port), 5_000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost:" + port + "\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            try {
                for (int from = 0; from < body.length; from += 4096) {
                    int n = Math.min(4096, body.length - from);
                    out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(body, from, n);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                // the server answered and closed before the whole body went: its answer is still to be read
            }
            return answer(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * GETs {@code target} (a path and query, sent byte for byte as given) on localhost:{@code port}, and answers the
     * status line and the answer's head and body as they came, up to the server's close or 10 s.
     */
    public static String get(int port, String target) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("localhost", port), 5_000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: localhost:" + port
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return answer(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String answer(Socket s) throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        try {
            s.getInputStream().transferTo(answer);
        } catch (SocketTimeoutException e) {
            // kept open past 10 s: what came is the answer
        }
        return answer.toString(StandardCharsets.UTF_8);
    }

    /** Whether the server closed (or reset) every one of these connections within {@code wait}, all told. */
    public boolean closedWithin(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        for (Socket s : sockets) {
            try {
                s.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                InputStream in = s.getInputStream();
                while (in.read() >= 0) {
                    // an answer before the close: read on
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                // reset: closed
            }
        }
        return true;
    }

    /** The worker threads of the Quarkus application under test: its setting, or Quarkus's default. */
    public static int workerThreads() {
        return ConfigProvider.getConfig().getOptionalValue("quarkus.thread-pool.max-threads", Integer.class)
                .orElse(Math.max(8 * Runtime.getRuntime().availableProcessors(), 200));
    }

    @Override
    public void close() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
