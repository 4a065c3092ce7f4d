package io.github.leanscrape.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import io.github.leanscrape.support.DecodingTools;
import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.StressTests;
import io.github.leanscrape.support.WithAndWithoutStarter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A fuzzer of the request: thousands of random {@code Accept}, {@code Accept-Encoding}
 * and scrape-timeout headers and query strings, each sent over HTTP to the same
 * application with the starter and without it (Spring Boot's endpoint), on Tomcat and on
 * Reactor Netty. The starter never answers 500, and never sends a body that Spring Boot's
 * endpoint would not send for the same request. It answers otherwise only where
 * docs/bad-input.md says why:
 * <ul>
 * <li>q-values: the starter honours them, Spring Boot's endpoint ignores them, so with a
 * q-value in {@code Accept} the two may choose different formats (each body is then its
 * format's), and a range with {@code q=0} rules its format out (406 where every format is
 * ruled out, Spring Boot answering 200);</li>
 * <li>{@code Accept-Encoding}: the starter compresses (gzip, zstd), Spring Boot's
 * endpoint does not: bodies are compared decoded;</li>
 * <li>a scrape timeout so short that it passes before the scrape is served: 503 from the
 * starter, where Spring Boot's endpoint has no timeout.</li>
 * </ul>
 * Generated with a seeded {@link Random}, printed on failure, rather than with jqwik: its
 * current release (1.10) runs on JUnit Platform 1.x, and Spring Boot 4.1 manages JUnit 6.
 * Replay one request with {@code -Dleanscrape.fuzz.seed=…}, a whole run with
 * {@code -Dleanscrape.fuzz.master=…}.
 */
@Tag(StressTests.TAG)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputFuzzHttpTests {

	private static final int REQUESTS = Integer.getInteger("leanscrape.fuzz.requests", 1500);

	private static final String PATH = "/actuator/prometheus";

	private static final String NAME_PARAMETER = "name%5B%5D=";

	private static final String INCLUDED_NAMES = "includedNames=";

	private static final String[] MEDIA_TYPES = { "text/plain", "application/openmetrics-text",
			"application/vnd.google.protobuf", "*/*", "text/*", "application/*", "application/json", "text/html",
			"garbage", "text/", "a/b/c", "TEXT/PLAIN", "application/OpenMetrics-Text" };

	private static final String[] PARAMETERS = { "version=0.0.4", "version=1.0.0", "version=0.0.1", "version=0.0.5",
			"charset=utf-8", "charset=iso-8859-1", "proto=io.prometheus.client.MetricFamily", "encoding=delimited",
			"encoding=text", "escaping=underscores", "escaping=allow-utf-8", "q=0", "q=0.0", "q=0.5", "q=1", "q=0.001",
			"q=abc", "q=", "q=1.5", "x=y", "version=" };

	private static final String[] CODINGS = { "gzip", "zstd", "identity", "br", "deflate", "*", "x-gzip", "GZIP",
			"compress", "" };

	private static final String[] TIMEOUTS = { "10", "1", "0.5", "-1", "0", "abc", "NaN", "1e300", "Infinity",
			"-Infinity", "", "5.", ".5", "0x10", "1_000", "0.000001" };

	private static final String[] NAMES = { "rich_requests", "rich_gauge", "rich_timer_seconds",
			"rich_timer_seconds_max", "jvm_memory_used_bytes", "nope", "", "rich_requests_total" };

	private static final String[] OTHER_PARAMETERS = { "foo=bar", "debug=text", "includedNames=", "format=json",
			"name%5B%5D=", "x" };

	private final List<WithAndWithoutStarter> stacks = new ArrayList<>();

	@BeforeAll
	void start() {
		for (String stack : List.of("servlet", "reactive")) {
			this.stacks.add(WithAndWithoutStarter.start(stack));
		}
	}

	@AfterAll
	void stop() {
		this.stacks.forEach(WithAndWithoutStarter::close);
	}

	@ParameterizedTest
	@ValueSource(strings = { "servlet", "reactive" })
	void randomRequestsGetWhatSpringBootGivesOrADocumentedDifference(String stackName) {
		WithAndWithoutStarter stack = this.stacks.stream()
			.filter((each) -> each.stack().equals(stackName))
			.findFirst()
			.orElseThrow();
		Long only = Long.getLong("leanscrape.fuzz.seed");
		long master = Long.getLong("leanscrape.fuzz.master", System.nanoTime());
		Random seeds = new Random(master);
		int requests = (only != null) ? 1 : REQUESTS;
		for (int i = 0; i < requests; i++) {
			long seed = (only != null) ? only : seeds.nextLong();
			FuzzedRequest request = FuzzedRequest.random(new Random(seed));
			try {
				check(stack, request);
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError("Request " + i + " on " + stackName + " (" + request
						+ ") answered unlike Spring Boot; replay with -Dleanscrape.fuzz.seed=" + seed + " (master seed "
						+ master + ")", ex);
			}
		}
	}

	private static void check(WithAndWithoutStarter stack, FuzzedRequest request) {
		Answer leanscrape = send(stack.leanscrapePort(), request.pathAndQuery(), request.headers());
		Answer boot = send(stack.springBootPort(), request.springBootPathAndQuery(), request.headers());
		int status = leanscrape.status;
		assertThat(status).as("status").isNotEqualTo(500);
		if (status == boot.status && status != 200) {
			return;
		}
		if (status == 503) {
			assertThat(request.hasShortTimeout()).as("503 without a short scrape timeout").isTrue();
			return;
		}
		if (status == 406 && boot.status == 200) {
			assertThat(request.hasZeroQuality()).as("406 where Spring Boot answers 200, without q=0").isTrue();
			return;
		}
		assertThat(status).as("status, Spring Boot's %d", boot.status).isEqualTo(boot.status);
		String contentType = leanscrape.contentType;
		String bootContentType = boot.contentType;
		if (!contentType.equals(bootContentType)) {
			assertThat(request.hasQuality() || request.rangesOfSeveralFormats())
				.as("Content-Type %s where Spring Boot sends %s, without q-values or ranges of several formats",
						contentType, bootContentType)
				.isTrue();
			return;
		}
		assertThat(decoded(leanscrape)).as("body").isEqualTo(decoded(boot));
	}

	/**
	 * Send a request on a connection of its own ({@code Connection: close}). With
	 * kept-alive connections of the JDK's {@code HttpClient}, Reactor Netty now and then
	 * leaves a request unanswered after a few hundred, with or without the starter; each
	 * request on its own connection keeps the comparison about the answers.
	 */
	private static Answer send(int port, String pathAndQuery, String[] headers) {
		try {
			HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + pathAndQuery)
				.toURL()
				.openConnection();
			connection.setConnectTimeout(5_000);
			connection.setReadTimeout(30_000);
			connection.setRequestProperty("Connection", "close");
			for (int i = 0; i < headers.length; i += 2) {
				connection.setRequestProperty(headers[i], headers[i + 1]);
			}
			int status = connection.getResponseCode();
			InputStream stream = (status < 400) ? connection.getInputStream() : connection.getErrorStream();
			byte[] body = (stream != null) ? stream.readAllBytes() : new byte[0];
			String contentType = connection.getHeaderField("Content-Type");
			String coding = connection.getHeaderField("Content-Encoding");
			connection.disconnect();
			return new Answer(status, (contentType != null) ? contentType : "", (coding != null) ? coding : "identity",
					body);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static byte[] decoded(Answer answer) {
		return switch (answer.contentEncoding) {
			case "identity" -> answer.body;
			case "gzip" -> HttpScraper.gunzip(answer.body);
			case "zstd" -> DecodingTools.zstd(answer.body);
			default -> fail("Content-Encoding " + answer.contentEncoding);
		};
	}

	private record Answer(int status, String contentType, String contentEncoding, byte[] body) {

	}

	/**
	 * One random request: its query string and headers, absent ones left out.
	 */
	private record FuzzedRequest(String query, String accept, String acceptEncoding, String timeout) {

		static FuzzedRequest random(Random random) {
			return new FuzzedRequest(query(random), accept(random), acceptEncoding(random), timeout(random));
		}

		private static String accept(Random random) {
			if (random.nextInt(8) == 0) {
				return "";
			}
			StringBuilder accept = new StringBuilder();
			int ranges = 1 + random.nextInt(4);
			for (int i = 0; i < ranges; i++) {
				if (i > 0) {
					accept.append(random.nextBoolean() ? "," : ", ");
				}
				accept.append(pick(random, MEDIA_TYPES));
				int parameters = random.nextInt(4);
				for (int p = 0; p < parameters; p++) {
					accept.append(random.nextBoolean() ? ";" : "; ").append(pick(random, PARAMETERS));
				}
			}
			return accept.toString();
		}

		private static String acceptEncoding(Random random) {
			if (random.nextInt(3) == 0) {
				return "";
			}
			StringBuilder codings = new StringBuilder();
			int count = 1 + random.nextInt(3);
			for (int i = 0; i < count; i++) {
				if (i > 0) {
					codings.append(", ");
				}
				codings.append(pick(random, CODINGS));
				if (random.nextInt(3) == 0) {
					codings.append(";q=").append(pick(random, new String[] { "0", "0.1", "0.5", "1", "abc" }));
				}
			}
			return codings.toString();
		}

		private static String timeout(Random random) {
			return (random.nextInt(3) == 0) ? pick(random, TIMEOUTS) : "";
		}

		private static String query(Random random) {
			List<String> parameters = new ArrayList<>();
			if (random.nextInt(3) == 0) {
				StringBuilder names = new StringBuilder("includedNames=");
				int count = random.nextInt(4);
				for (int i = 0; i < count; i++) {
					names.append((i > 0) ? "," : "").append(pick(random, NAMES));
				}
				parameters.add(names.toString());
			}
			if (random.nextInt(5) == 0) {
				parameters.add("name%5B%5D=" + pick(random, NAMES));
			}
			if (random.nextInt(5) == 0) {
				parameters.add(pick(random, OTHER_PARAMETERS));
			}
			return String.join("&", parameters);
		}

		private static String pick(Random random, String[] values) {
			return values[random.nextInt(values.length)];
		}

		String pathAndQuery() {
			return this.query.isEmpty() ? PATH : PATH + "?" + this.query;
		}

		/**
		 * Return the request for Spring Boot's endpoint, which knows
		 * {@code includedNames} only: {@code name[]} values, which the starter reads as
		 * names too, join it.
		 * @return the path and query
		 */
		String springBootPathAndQuery() {
			if (!this.query.contains(NAME_PARAMETER)) {
				return pathAndQuery();
			}
			List<String> includedNames = new ArrayList<>();
			List<String> names = new ArrayList<>();
			List<String> parameters = new ArrayList<>();
			for (String parameter : this.query.split("&")) {
				if (parameter.startsWith(NAME_PARAMETER)) {
					names.add(parameter.substring(NAME_PARAMETER.length()));
				}
				else if (parameter.startsWith(INCLUDED_NAMES)) {
					includedNames.add(parameter.substring(INCLUDED_NAMES.length()));
				}
				else {
					parameters.add(parameter);
				}
			}
			// Spring Boot reads one includedNames value as a comma-separated list, and
			// several values as one name each.
			if (includedNames.size() == 1) {
				names.addAll(List.of(includedNames.get(0).split(",", -1)));
			}
			else {
				names.addAll(includedNames);
			}
			if (names.size() == 1) {
				parameters.add(INCLUDED_NAMES + names.get(0));
			}
			else {
				for (String name : names) {
					parameters.add(INCLUDED_NAMES + name);
				}
			}
			return PATH + "?" + String.join("&", parameters);
		}

		/**
		 * Return whether {@code Accept} has ranges that match different formats, between
		 * which the starter chooses by specificity, then order (docs/bad-input.md).
		 * @return {@code true} when at least two formats are named or matched
		 */
		boolean rangesOfSeveralFormats() {
			String accept = this.accept.toLowerCase(Locale.ROOT);
			int formats = 0;
			for (String format : new String[] { "text/plain", "openmetrics", "protobuf" }) {
				if (accept.contains(format)) {
					formats++;
				}
			}
			boolean wildcard = accept.contains("*/*") || accept.contains("application/*") || accept.contains("text/*");
			return formats + (wildcard ? 1 : 0) >= 2;
		}

		String[] headers() {
			List<String> headers = new ArrayList<>();
			if (!this.accept.isEmpty()) {
				headers.add("Accept");
				headers.add(this.accept);
			}
			if (!this.acceptEncoding.isEmpty()) {
				headers.add("Accept-Encoding");
				headers.add(this.acceptEncoding);
			}
			if (!this.timeout.isEmpty()) {
				headers.add("X-Prometheus-Scrape-Timeout-Seconds");
				headers.add(this.timeout);
			}
			return headers.toArray(new String[0]);
		}

		boolean hasQuality() {
			return this.accept.toLowerCase(Locale.ROOT).contains("q=");
		}

		boolean hasZeroQuality() {
			for (String parameter : this.accept.split("[;,]")) {
				String trimmed = parameter.trim();
				if (trimmed.startsWith("q=")) {
					try {
						if (Double.parseDouble(trimmed.substring(2)) == 0) {
							return true;
						}
					}
					catch (NumberFormatException ex) {
						// Not a number: no quality.
					}
				}
			}
			return false;
		}

		boolean hasShortTimeout() {
			try {
				double seconds = Double.parseDouble(this.timeout);
				return seconds > 0 && seconds < 0.05;
			}
			catch (NumberFormatException ex) {
				return false;
			}
		}

	}

}
