package io.github.leanscrape.support;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.GZIPInputStream;

/**
 * Scrapes over real HTTP with the JDK's client, which sends exactly the headers it is
 * given and decompresses nothing by itself.
 */
public final class HttpScraper {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String host;

	private final int port;

	public HttpScraper(int port) {
		this("127.0.0.1", port);
	}

	public HttpScraper(String host, int port) {
		this.host = host;
		this.port = port;
	}

	public HttpRequest.Builder request(String pathAndQuery) {
		return HttpRequest.newBuilder(URI.create("http://" + this.host + ":" + this.port + pathAndQuery))
			.timeout(Duration.ofSeconds(30));
	}

	public HttpResponse<byte[]> send(HttpRequest.Builder request) {
		try {
			return this.client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	public HttpResponse<byte[]> get(String pathAndQuery, String... headers) {
		HttpRequest.Builder request = request(pathAndQuery);
		if (headers.length > 0) {
			request.headers(headers);
		}
		return send(request.GET());
	}

	public static byte[] gunzip(byte[] gzip) {
		try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Ask for a scrape on a raw socket, read a little of the answer and hang up.
	 * @param path the path
	 * @param bytesToRead how much of the response to read before closing
	 */
	public void getAndHangUp(String path, int bytesToRead) {
		try (Socket socket = new Socket(this.host, this.port)) {
			socket.setSoTimeout(10_000);
			socket.setReceiveBufferSize(4096);
			OutputStream out = socket.getOutputStream();
			out.write(("GET " + path + " HTTP/1.1\r\nHost: " + this.host + "\r\nAccept-Encoding: identity\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[bytesToRead];
			int read = 0;
			while (read < bytesToRead) {
				int n = in.read(buffer, read, bytesToRead - read);
				if (n < 0) {
					break;
				}
				read += n;
			}
			socket.setSoLinger(true, 0);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
