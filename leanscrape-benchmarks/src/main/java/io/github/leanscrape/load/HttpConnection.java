package io.github.leanscrape.load;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * One kept-alive HTTP/1.1 connection over a blocking socket that sends one request again
 * and again and reads each response to its end, keeping nothing of the body: it costs the
 * machine little next to the server it measures, and allocates only the strings of the
 * header lines. It understands what the measured servers send: a status line, headers,
 * and a body of {@code Content-Length} bytes or in chunks. It opens the connection when a
 * request is to be sent, and again after the server closed it ({@code Connection: close};
 * Tomcat does after 100 requests by default), as Prometheus does.
 *
 * @author leanscrape
 */
public final class HttpConnection implements AutoCloseable {

	private final String host;

	private final int port;

	private final int readTimeoutMillis;

	private final byte[] request;

	private final byte[] line = new byte[8192];

	private final byte[] scratch = new byte[64 * 1024];

	private volatile @Nullable Socket socket;

	private @Nullable InputStream in;

	private @Nullable OutputStream out;

	private long bodyLength;

	/**
	 * Create a connection for one request, opened when the first is sent.
	 * @param host the server's address
	 * @param port the server's port
	 * @param readTimeoutMillis how long a read may wait before the exchange fails
	 * @param path the path and query of the request
	 * @param headers more request headers, as {@code name: value}
	 */
	public HttpConnection(String host, int port, int readTimeoutMillis, String path, String... headers) {
		this.host = host;
		this.port = port;
		this.readTimeoutMillis = readTimeoutMillis;
		StringBuilder request = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\n");
		request.append("Host: ").append(host).append(':').append(port).append("\r\n");
		for (String header : headers) {
			request.append(header).append("\r\n");
		}
		this.request = request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * Return whether the connection is open.
	 * @return {@code true} when a socket is open
	 */
	public boolean isOpen() {
		return this.socket != null;
	}

	/**
	 * Send the request, opening the connection first if it is not, and read the whole
	 * response.
	 * @return the response's status
	 * @throws IOException when the exchange fails
	 */
	public int exchange() throws IOException {
		OutputStream out = this.out;
		if (this.socket == null || out == null) {
			out = open();
		}
		out.write(this.request);
		out.flush();
		int length = readLine();
		// "HTTP/1.1 200 ..."
		if (length < 12) {
			throw new IOException("Bad status line");
		}
		int status = (this.line[9] - '0') * 100 + (this.line[10] - '0') * 10 + (this.line[11] - '0');
		long contentLength = -1;
		boolean chunked = false;
		boolean close = false;
		while ((length = readLine()) > 0) {
			String header = new String(this.line, 0, length, StandardCharsets.US_ASCII);
			int colon = header.indexOf(':');
			if (colon < 0) {
				continue;
			}
			String name = header.substring(0, colon).trim();
			String value = header.substring(colon + 1).trim();
			if (name.equalsIgnoreCase("Content-Length")) {
				contentLength = Long.parseLong(value);
			}
			else if (name.equalsIgnoreCase("Transfer-Encoding") && value.equalsIgnoreCase("chunked")) {
				chunked = true;
			}
			else if (name.equalsIgnoreCase("Connection") && value.equalsIgnoreCase("close")) {
				close = true;
			}
		}
		this.bodyLength = chunked ? skipChunks() : skip(Math.max(0, contentLength));
		if (close) {
			close();
		}
		return status;
	}

	/**
	 * Return the length of the last response's body, as sent (compressed, if it was).
	 * @return the bytes
	 */
	public long bodyLength() {
		return this.bodyLength;
	}

	private OutputStream open() throws IOException {
		Socket socket = new Socket();
		socket.setTcpNoDelay(true);
		socket.setSoTimeout(this.readTimeoutMillis);
		socket.connect(new InetSocketAddress(this.host, this.port), 5_000);
		this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
		OutputStream out = socket.getOutputStream();
		this.out = out;
		this.socket = socket;
		return out;
	}

	private long skipChunks() throws IOException {
		long length = 0;
		long size;
		while ((size = chunkSize()) > 0) {
			skip(size);
			readLine();
			length += size;
		}
		// Trailers, up to the empty line.
		while (readLine() > 0) {
			// A trailer, left unread.
		}
		return length;
	}

	private long chunkSize() throws IOException {
		int length = readLine();
		long size = 0;
		for (int i = 0; i < length && this.line[i] != ';'; i++) {
			int digit = Character.digit(this.line[i], 16);
			if (digit >= 0) {
				size = size * 16 + digit;
			}
		}
		return size;
	}

	private int readLine() throws IOException {
		InputStream in = input();
		int length = 0;
		int b;
		while ((b = in.read()) != '\n') {
			if (b < 0) {
				throw new IOException("Connection closed");
			}
			if (b != '\r' && length < this.line.length) {
				this.line[length++] = (byte) b;
			}
		}
		return length;
	}

	private long skip(long bytes) throws IOException {
		// Read into one scratch array: InputStream.skip would allocate a buffer per call
		// and read a few KiB at a time.
		InputStream in = input();
		long remaining = bytes;
		while (remaining > 0) {
			int read = in.read(this.scratch, 0, (int) Math.min(remaining, this.scratch.length));
			if (read < 0) {
				throw new IOException("Connection closed");
			}
			remaining -= read;
		}
		return bytes;
	}

	private InputStream input() throws IOException {
		InputStream in = this.in;
		if (in == null) {
			throw new IOException("Not connected");
		}
		return in;
	}

	/**
	 * Close the connection; safe from another thread, where it unblocks a read.
	 */
	@Override
	public void close() {
		Socket socket = this.socket;
		if (socket != null) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// Going away anyway.
			}
			this.socket = null;
		}
	}

}
