package io.github.leanscrape.benchmark;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * An HTTP/1.1 client over one kept-alive connection that reads each response into one
 * reused buffer and keeps nothing of it: in a benchmark that runs server and client in
 * one JVM, the bytes allocated per scrape are then the server's, but for the client's
 * strings of the status and header lines (a few hundred bytes a response). It understands
 * what the benchmarked servers send: a status line, headers, and a body of
 * {@code Content-Length} bytes or in chunks; when a server closes the connection after a
 * response (Tomcat does after 100 requests on one connection, by default), it opens a new
 * one for the next request, as Prometheus does.
 *
 * @author leanscrape
 */
final class RawHttpClient implements AutoCloseable {

	private static final int BUFFER = 64 * 1024;

	private final int port;

	private @Nullable Socket socket;

	private @Nullable InputStream in;

	private @Nullable OutputStream out;

	private final byte[] request;

	private final byte[] buffer = new byte[BUFFER];

	private int position;

	private int limit;

	private final StringBuilder line = new StringBuilder(128);

	/**
	 * Open a connection for one request, sent again and again.
	 * @param port the server's port on the loopback address
	 * @param path the path and query
	 * @param headers more request headers, as {@code name: value} lines
	 * @throws IOException when the connection cannot be opened
	 */
	RawHttpClient(int port, String path, String... headers) throws IOException {
		this.port = port;
		connect();
		StringBuilder request = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\n");
		request.append("Host: 127.0.0.1:").append(port).append("\r\n");
		for (String header : headers) {
			request.append(header).append("\r\n");
		}
		this.request = request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * Send the request and read the whole response.
	 * @return the body's length in bytes, as sent (compressed, if it is)
	 * @throws IOException when the exchange fails or the status is not 200
	 */
	long get() throws IOException {
		OutputStream out = this.out;
		if (out == null) {
			out = connect();
		}
		out.write(this.request);
		out.flush();
		String status = readLine();
		if (!status.startsWith("HTTP/1.1 200")) {
			close();
			throw new IOException("Unexpected response: " + status);
		}
		long contentLength = -1;
		boolean chunked = false;
		boolean close = false;
		for (String header = readLine(); !header.isEmpty(); header = readLine()) {
			int colon = header.indexOf(':');
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
		long length = chunked ? skipChunks() : skipLength(contentLength);
		if (close) {
			close();
		}
		return length;
	}

	private long skipLength(long contentLength) throws IOException {
		if (contentLength < 0) {
			throw new IOException("Neither Content-Length nor chunked");
		}
		skip(contentLength);
		return contentLength;
	}

	private long skipChunks() throws IOException {
		long length = 0;
		while (true) {
			String size = readLine();
			int extension = size.indexOf(';');
			long chunk = Long.parseLong((extension < 0) ? size.trim() : size.substring(0, extension).trim(), 16);
			if (chunk == 0) {
				while (!readLine().isEmpty()) {
					// trailers
				}
				return length;
			}
			skip(chunk);
			readLine();
			length += chunk;
		}
	}

	private OutputStream connect() throws IOException {
		Socket socket = new Socket();
		socket.setTcpNoDelay(true);
		// A server that stops answering fails the benchmark rather than hanging it.
		socket.setSoTimeout(60_000);
		socket.connect(new InetSocketAddress("127.0.0.1", this.port));
		this.socket = socket;
		this.in = socket.getInputStream();
		OutputStream out = socket.getOutputStream();
		this.out = out;
		this.position = 0;
		this.limit = 0;
		return out;
	}

	private void skip(long count) throws IOException {
		long remaining = count;
		while (remaining > 0) {
			if (this.position == this.limit) {
				fill();
			}
			int n = (int) Math.min(remaining, this.limit - this.position);
			this.position += n;
			remaining -= n;
		}
	}

	private String readLine() throws IOException {
		this.line.setLength(0);
		while (true) {
			if (this.position == this.limit) {
				fill();
			}
			byte b = this.buffer[this.position++];
			if (b == '\n') {
				int length = this.line.length();
				if (length > 0 && this.line.charAt(length - 1) == '\r') {
					this.line.setLength(length - 1);
				}
				return this.line.toString();
			}
			this.line.append((char) b);
		}
	}

	private void fill() throws IOException {
		InputStream in = this.in;
		if (in == null) {
			throw new EOFException("Not connected");
		}
		int n = in.read(this.buffer, 0, this.buffer.length);
		if (n < 0) {
			throw new EOFException("Connection closed");
		}
		this.position = 0;
		this.limit = n;
	}

	@Override
	public void close() throws IOException {
		Socket socket = this.socket;
		this.socket = null;
		this.in = null;
		this.out = null;
		if (socket != null) {
			socket.close();
		}
	}

}
