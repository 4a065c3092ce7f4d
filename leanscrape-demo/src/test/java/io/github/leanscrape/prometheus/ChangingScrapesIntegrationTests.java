package io.github.leanscrape.prometheus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.leanscrape.support.HttpScraper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real Prometheus and VictoriaMetrics servers scrape the demo application with gzip, once
 * a second, on Tomcat (Spring MVC) and on Reactor Netty (Spring WebFlux), while its
 * counters change between scrapes as planned: none, a cluster, scattered, all, meters
 * added and removed. Every scrape succeeds, the starter reuses unchanged segments between
 * them, and once the plan ends what each server stored is what Spring Boot's endpoint
 * writes.
 *
 * @author leanscrape
 */
@Tag(PrometheusTests.TAG)
@Tag(VictoriaMetricsTests.TAG)
class ChangingScrapesIntegrationTests {

	private static final String SCRAPE_PATH = "/actuator/prometheus";

	private static final Duration TARGET_UP_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration PLAN_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration STORED_TIMEOUT = Duration.ofSeconds(20);

	private static final String JOB = "job=\"" + ScrapingServer.JOB + "\"";

	private static final String DEMO_SERIES = "{__name__=~\"demo_.+\"," + JOB + "}";

	private static final String DEMO_COUNTERS = "{__name__=~\"demo_.+_total\"," + JOB + "}";

	/**
	 * What changes before each scrape, in order; after the last, nothing does.
	 */
	private static final Change[] PLAN = { Change.NONE, Change.CLUSTERED, Change.SCATTERED, Change.ADDED, Change.NONE,
			Change.REMOVED, Change.ALL, Change.NONE };

	/**
	 * Scrapes after the plan, with nothing changed: every segment reused.
	 */
	private static final int SCRAPES_AFTER_THE_PLAN = 2;

	/**
	 * The demo on each web stack, started when first scraped.
	 */
	private static final Map<Stack, RunningDemo> demos = new EnumMap<>(Stack.class);

	@AfterAll
	static void stopDemos() {
		for (RunningDemo demo : demos.values()) {
			demo.close();
		}
		demos.clear();
	}

	private static RunningDemo demo(Stack stack) {
		return demos.computeIfAbsent(stack,
				(key) -> RunningDemo.start(10_000, new Class<?>[] { ChangesBeforeScrapes.class },
						"--demo.reference-endpoint=true", "--spring.main.web-application-type=" + key.applicationType));
	}

	static List<Arguments> scrapersAndStacks() {
		List<Arguments> arguments = new ArrayList<>();
		for (Stack stack : Stack.values()) {
			for (Scraper scraper : Scraper.values()) {
				arguments.add(Arguments.of(scraper, stack));
			}
		}
		return arguments;
	}

	@ParameterizedTest(name = "{0} on {1}")
	@MethodSource("scrapersAndStacks")
	void everyScrapeSucceedsAndTheLastIsStoredAsSpringBootWritesIt(Scraper scraper, Stack stack,
			@TempDir Path directory) throws Exception {
		RunningDemo demo = demo(stack);
		int port = demo.port();
		PlannedChanges changes = demo.context().getBean(PlannedChanges.class);
		try (ScrapingServer server = scraper.start(directory, port)) {
			assertThat(server.awaitTargetUp(TARGET_UP_TIMEOUT).path("lastError").asString()).isEmpty();
			StoredDemoValues stored = new StoredDemoValues(server);
			changes.restart();
			// Counted once answered: a scrape is planned before its response is done.
			await().atMost(PLAN_TIMEOUT)
				.until(() -> changes.exchanges().size() >= PLAN.length + SCRAPES_AFTER_THE_PLAN);
			assertThat(changes.exchanges()).as("every scrape of the plan: status, Content-Encoding")
				.hasSizeGreaterThanOrEqualTo(PLAN.length + SCRAPES_AFTER_THE_PLAN)
				.allMatch((exchange) -> exchange.equals("200 gzip"));
			Exposition reference = Exposition
				.of(new HttpScraper(port).get("/reference/prometheus?format=" + scraper.format.name()).body());
			assertThat(stored.awaitQuery("count(" + DEMO_SERIES + ")", reference.series("demo_"), STORED_TIMEOUT))
				.as("demo series")
				.isEqualTo(reference.series("demo_"));
			assertThat(
					stored.awaitQuery("sum(" + DEMO_COUNTERS + ")", reference.sum("demo_", "_total"), STORED_TIMEOUT))
				.as("sum of the demo's counters")
				.isEqualTo(reference.sum("demo_", "_total"));
			assertThat(stored.query("min_over_time(up{" + JOB + "}[30s])")).as("every scrape up").isEqualTo(1.0);
			assertThat(stored.value("leanscrape_compression_segments_total{coding=\"gzip\",outcome=\"reused\"}"))
				.as("segments reused between the scrapes")
				.isPositive();
			assertThat(stored.value("leanscrape_fallbacks_total{scope=\"scrape\"}")).isZero();
		}
	}

	/**
	 * A Prometheus and a VictoriaMetrics at once: two kinds of body (OpenMetrics and
	 * text), two bodies and a rendering more than the default memory limit holds, so the
	 * body of one kind is dropped for room at renderings of the other and its gzip form
	 * stands in for it.
	 */
	@ParameterizedTest(name = "on {0}")
	@EnumSource(Stack.class)
	void bothScrapersAtOnceStoreWhatSpringBootWrites(Stack stack, @TempDir Path directory) throws Exception {
		RunningDemo demo = demo(stack);
		int port = demo.port();
		PlannedChanges changes = demo.context().getBean(PlannedChanges.class);
		try (ScrapingServer prometheus = Scraper.PROMETHEUS.start(Files.createDirectory(directory.resolve("p")), port);
				ScrapingServer victoriaMetrics = Scraper.VICTORIA_METRICS
					.start(Files.createDirectory(directory.resolve("v")), port)) {
			assertThat(prometheus.awaitTargetUp(TARGET_UP_TIMEOUT).path("lastError").asString()).isEmpty();
			assertThat(victoriaMetrics.awaitTargetUp(TARGET_UP_TIMEOUT).path("lastError").asString()).isEmpty();
			changes.restart();
			int scrapes = 2 * (PLAN.length + SCRAPES_AFTER_THE_PLAN);
			await().atMost(PLAN_TIMEOUT).until(() -> changes.exchanges().size() >= scrapes);
			assertThat(changes.exchanges()).as("every scrape of the plan: status, Content-Encoding")
				.allMatch((exchange) -> exchange.equals("200 gzip"));
			for (Scraper scraper : Scraper.values()) {
				StoredDemoValues stored = new StoredDemoValues(
						(scraper == Scraper.PROMETHEUS) ? prometheus : victoriaMetrics);
				Exposition reference = Exposition
					.of(new HttpScraper(port).get("/reference/prometheus?format=" + scraper.format.name()).body());
				assertThat(stored.awaitQuery("count(" + DEMO_SERIES + ")", reference.series("demo_"), STORED_TIMEOUT))
					.as(scraper + ": demo series")
					.isEqualTo(reference.series("demo_"));
				assertThat(stored.awaitQuery("sum(" + DEMO_COUNTERS + ")", reference.sum("demo_", "_total"),
						STORED_TIMEOUT))
					.as(scraper + ": sum of the demo's counters")
					.isEqualTo(reference.sum("demo_", "_total"));
				assertThat(stored.query("min_over_time(up{" + JOB + "}[30s])")).as(scraper + ": every scrape up")
					.isEqualTo(1.0);
				assertThat(stored.value("leanscrape_fallbacks_total{scope=\"scrape\"}")).isZero();
			}
		}
	}

	/**
	 * The real scrapers, each in the format it asks for first.
	 */
	enum Scraper {

		PROMETHEUS(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100) {

			@Override
			ScrapingServer start(Path directory, int port) throws IOException {
				return ScrapingServer.prometheus(directory, port);
			}

		},

		VICTORIA_METRICS(PrometheusOutputFormat.CONTENT_TYPE_004) {

			@Override
			ScrapingServer start(Path directory, int port) throws IOException {
				return ScrapingServer.victoriaMetrics(directory, port, null);
			}

		};

		private final PrometheusOutputFormat format;

		Scraper(PrometheusOutputFormat format) {
			this.format = format;
		}

		abstract ScrapingServer start(Path directory, int port) throws IOException;

	}

	/**
	 * The web stacks the demo runs on.
	 */
	enum Stack {

		TOMCAT("servlet"), NETTY("reactive");

		private final String applicationType;

		Stack(String applicationType) {
			this.applicationType = applicationType;
		}

	}

	/**
	 * What changes before a scrape.
	 */
	enum Change {

		NONE, CLUSTERED, SCATTERED, ALL, ADDED, REMOVED

	}

	/**
	 * The plan and the filter that carries it out.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ChangesBeforeScrapes {

		@Bean
		PlannedChanges plannedChanges(MeterRegistry registry) {
			return new PlannedChanges(registry);
		}

		@Bean
		@ConditionalOnWebApplication(type = Type.SERVLET)
		OncePerRequestFilter changesBeforeScrapesFilter(PlannedChanges changes) {
			return new ChangesFilter(changes);
		}

		@Bean
		@ConditionalOnWebApplication(type = Type.REACTIVE)
		WebFilter changesBeforeScrapesWebFilter(PlannedChanges changes) {
			return new ChangesWebFilter(changes);
		}

	}

	/**
	 * Applies the next change of the plan before each scrape and records how each scrape
	 * was answered.
	 */
	static final class PlannedChanges {

		private static final int CLUSTER = 1000;

		private static final int ADDED = 500;

		private final List<Counter> counters = new ArrayList<>();

		private final MeterRegistry registry;

		private final List<Meter> added = new ArrayList<>();

		private final Queue<String> exchanges = new ConcurrentLinkedQueue<>();

		private int next = -1;

		PlannedChanges(MeterRegistry registry) {
			this.registry = registry;
		}

		/**
		 * Start the plan again with the next scrape, over the demo's counters as they are
		 * now.
		 */
		synchronized void restart() {
			this.counters.clear();
			for (Meter meter : this.registry.getMeters()) {
				if (meter instanceof Counter counter && meter.getId().getName().startsWith("demo.")) {
					this.counters.add(counter);
				}
			}
			// The order of the body: by name, then by tags.
			this.counters.sort((a, b) -> a.getId().toString().compareTo(b.getId().toString()));
			this.next = 0;
			this.exchanges.clear();
		}

		List<String> exchanges() {
			return new ArrayList<>(this.exchanges);
		}

		synchronized boolean beforeScrape() {
			if (this.next < 0) {
				return false;
			}
			if (this.next < PLAN.length) {
				apply(PLAN[this.next]);
			}
			this.next++;
			return true;
		}

		void answered(int status, @Nullable String contentEncoding) {
			this.exchanges.add(status + " " + contentEncoding);
		}

		private void apply(Change change) {
			int size = this.counters.size();
			switch (change) {
				case CLUSTERED -> {
					for (Counter counter : this.counters.subList(size / 2, Math.min(size, size / 2 + CLUSTER))) {
						counter.increment();
					}
				}
				case SCATTERED -> {
					for (int i = 0; i < size; i += 50) {
						this.counters.get(i).increment();
					}
				}
				case ALL -> {
					for (Counter counter : this.counters) {
						counter.increment();
					}
				}
				case ADDED -> {
					for (int i = 0; i < ADDED; i++) {
						this.added.add(Counter.builder("demo.added.events")
							.description("Counters added while scraped")
							.tag("index", Integer.toString(i))
							.register(this.registry));
					}
				}
				case REMOVED -> {
					for (Meter meter : this.added) {
						this.registry.remove(meter);
					}
					this.added.clear();
				}
				default -> {
				}
			}
		}

	}

	private static final class ChangesFilter extends OncePerRequestFilter implements Ordered {

		private final PlannedChanges changes;

		ChangesFilter(PlannedChanges changes) {
			this.changes = changes;
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
			boolean planned = this.changes.beforeScrape();
			try {
				chain.doFilter(request, response);
			}
			finally {
				if (planned) {
					this.changes.answered(response.getStatus(), response.getHeader(HttpHeaders.CONTENT_ENCODING));
				}
			}
		}

	}

	private static final class ChangesWebFilter implements WebFilter, Ordered {

		private final PlannedChanges changes;

		ChangesWebFilter(PlannedChanges changes) {
			this.changes = changes;
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
			if (!SCRAPE_PATH.equals(exchange.getRequest().getPath().value()) || !this.changes.beforeScrape()) {
				return chain.filter(exchange);
			}
			return chain.filter(exchange).doFinally((signal) -> {
				HttpStatusCode status = exchange.getResponse().getStatusCode();
				this.changes.answered((status != null) ? status.value() : 200,
						exchange.getResponse().getHeaders().getFirst(HttpHeaders.CONTENT_ENCODING));
			});
		}

	}

}
