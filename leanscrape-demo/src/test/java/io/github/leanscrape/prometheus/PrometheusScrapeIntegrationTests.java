package io.github.leanscrape.prometheus;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus server scrapes the demo application and stores exactly the values the
 * application set, in each of the formats that Prometheus asks for.
 *
 * @author leanscrape
 */
@Tag(PrometheusTests.TAG)
class PrometheusScrapeIntegrationTests {

	private static final String SCRAPE_PATH = "/actuator/prometheus";

	private static final Duration TARGET_UP_TIMEOUT = Duration.ofSeconds(30);

	private static @Nullable RunningDemo demo;

	private static int port;

	private static Queue<ScrapeExchange> exchanges = new ConcurrentLinkedQueue<>();

	@BeforeAll
	static void startDemo() {
		RunningDemo started = RunningDemo.start(2000, new Class<?>[] { ScrapeRecording.class });
		demo = started;
		port = started.port();
		exchanges = started.context().getBean(ScrapeRecording.class).exchanges;
	}

	@AfterAll
	static void stopDemo() {
		if (demo != null) {
			demo.close();
		}
	}

	@ParameterizedTest
	@EnumSource
	void prometheusStoresTheKnownValues(ScrapeProtocol protocol, @TempDir Path directory) throws Exception {
		// Scrapes by an earlier server may still finish while this one starts: only those
		// that began after this point are this server's.
		long started = System.nanoTime();
		try (ScrapingServer prometheus = ScrapingServer.prometheus(directory, port, protocol.flags)) {
			JsonNode target = prometheus.awaitTargetUp(TARGET_UP_TIMEOUT);
			assertThat(target.path("lastError").asString()).isEmpty();
			StoredDemoValues stored = new StoredDemoValues(prometheus);
			stored.assertKnownValues();
			assertNegotiated(protocol, started);
			// Every format is written directly: no scrape of the demo, in any format so
			// far, went to the reference path as a whole.
			assertThat(stored.value("leanscrape_fallbacks_total{scope=\"scrape\"}")).isZero();
		}
	}

	private static void assertNegotiated(ScrapeProtocol protocol, long startedNanos) {
		List<ScrapeExchange> seen = new ArrayList<>();
		for (ScrapeExchange exchange : exchanges) {
			if (exchange.startedNanos() - startedNanos > 0) {
				seen.add(exchange);
			}
		}
		assertThat(seen).isNotEmpty();
		assertThat(seen).allSatisfy((exchange) -> {
			assertThat(exchange.accept()).as("Accept").startsWith(protocol.mediaType);
			assertThat(exchange.acceptEncoding()).as("Accept-Encoding").contains("gzip");
			assertThat(exchange.status()).as("status").isEqualTo(200);
			assertThat(exchange.contentType()).as("Content-Type").startsWith(protocol.mediaType);
			assertThat(exchange.contentEncoding()).as("Content-Encoding").isEqualTo("gzip");
		});
	}

	/**
	 * How Prometheus 2.x scrapes: what it asks for first, and the flags that make it ask.
	 */
	enum ScrapeProtocol {

		/**
		 * Prometheus's default: OpenMetrics first.
		 */
		OPENMETRICS("application/openmetrics-text"),

		/**
		 * With native histograms enabled: protobuf first.
		 */
		PROTOBUF("application/vnd.google.protobuf", "--enable-feature=native-histograms");

		private final String mediaType;

		private final String[] flags;

		ScrapeProtocol(String mediaType, String... flags) {
			this.mediaType = mediaType;
			this.flags = flags;
		}

	}

	/**
	 * What a scrape asked for and what it got.
	 */
	record ScrapeExchange(long startedNanos, @Nullable String accept, @Nullable String acceptEncoding, int status,
			@Nullable String contentType, @Nullable String contentEncoding) {
	}

	/**
	 * Records the headers of each scrape, outside every other filter: the request as the
	 * client sent it, the response as it left.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ScrapeRecording {

		final Queue<ScrapeExchange> exchanges = new ConcurrentLinkedQueue<>();

		@Bean
		OncePerRequestFilter scrapeRecordingFilter() {
			return new RecordingFilter(this.exchanges);
		}

	}

	private static final class RecordingFilter extends OncePerRequestFilter implements Ordered {

		private final Queue<ScrapeExchange> exchanges;

		RecordingFilter(Queue<ScrapeExchange> exchanges) {
			this.exchanges = exchanges;
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

		@Override
		protected boolean shouldNotFilter(HttpServletRequest request) {
			return !SCRAPE_PATH.equals(request.getRequestURI());
		}

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			long started = System.nanoTime();
			try {
				chain.doFilter(request, response);
			}
			finally {
				this.exchanges.add(new ScrapeExchange(started, request.getHeader(HttpHeaders.ACCEPT),
						request.getHeader(HttpHeaders.ACCEPT_ENCODING), response.getStatus(), response.getContentType(),
						response.getHeader(HttpHeaders.CONTENT_ENCODING)));
			}
		}

	}

}
