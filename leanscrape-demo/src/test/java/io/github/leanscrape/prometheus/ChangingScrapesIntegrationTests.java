package io.github.leanscrape.prometheus;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.stream.IntStream;
import java.util.zip.GZIPInputStream;

import io.github.leanscrape.exposition.direct.DirectRenderer;
import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.web.FormatNegotiator;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;
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
 * added and removed. Every scrape succeeds, and the bytes it sent, decoded, have the
 * {@code demo_} lines that Spring Boot's endpoint writes at the moment the scrape starts;
 * the starter reuses unchanged blocks and segments in each case; and once the plan ends
 * what each server stored is what Spring Boot's endpoint writes. Each case runs on both
 * stacks at once, each stack with its own demo and servers.
 * <p>
 * A filter in front of the endpoint applies the plan's change for each scrape, has Spring
 * Boot's own endpoint render the same registry in the format the scrape asks for, and
 * keeps a copy of the bytes the response sends. A body whose {@code demo_} lines lag
 * behind Spring Boot's fails with its step, change, format and first differing line, and
 * is saved with its reference under {@code target/stale-scrapes}.
 *
 * @author leanscrape
 */
@Tag(PrometheusTests.TAG)
@Tag(VictoriaMetricsTests.TAG)
class ChangingScrapesIntegrationTests {

	private static final Log logger = LogFactory.getLog(ChangingScrapesIntegrationTests.class);

	private static final String SCRAPE_PATH = "/actuator/prometheus";

	private static final Duration TARGET_UP_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration PLAN_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration STORED_TIMEOUT = Duration.ofSeconds(20);

	private static final String JOB = "job=\"" + ScrapingServer.JOB + "\"";

	private static final String DEMO_SERIES = "{__name__=~\"demo_.+\"," + JOB + "}";

	private static final String DEMO_COUNTERS = "{__name__=~\"demo_.+_total\"," + JOB + "}";

	/**
	 * Where the bodies that differ from Spring Boot's, and Spring Boot's, are saved.
	 */
	private static final Path STALE_SCRAPES = Path.of("target", "stale-scrapes");

	/**
	 * What changes before each scrape, in order; after the last, nothing does.
	 */
	private static final Change[] PLAN = { Change.NONE, Change.CLUSTERED, Change.SCATTERED, Change.ADDED, Change.NONE,
			Change.REMOVED, Change.ALL, Change.NONE };

	/**
	 * The step of the plan's last change that changes something: the scrapes of this step
	 * and later ones start with every change applied.
	 */
	private static final int LAST_CHANGE_STEP = lastChangeStep();

	/**
	 * Scrapes after the plan, with nothing changed: every segment reused.
	 */
	private static final int SCRAPES_AFTER_THE_PLAN = 2;

	/**
	 * How many times each endpoint renders each format before a demo is scraped.
	 */
	private static final int WARM_UP_RENDERINGS = 3;

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
				(key) -> warmedUp(RunningDemo.start(10_000, new Class<?>[] { ChangesBeforeScrapes.class },
						"--demo.reference-endpoint=true",
						"--spring.main.web-application-type=" + key.applicationType)));
	}

	/**
	 * Warm a demo up before it is scraped: under load, the first renderings of the
	 * starter's endpoint and of Spring Boot's are slow enough to time out the first
	 * scrapes (1 s), which a case would count as down.
	 * @param demo the demo, just started
	 * @return the demo
	 */
	private static RunningDemo warmedUp(RunningDemo demo) {
		HttpScraper http = new HttpScraper(demo.port());
		for (int i = 0; i < WARM_UP_RENDERINGS; i++) {
			for (Scraper scraper : Scraper.values()) {
				http.get(SCRAPE_PATH, "Accept", scraper.format.getProducedMimeType().toString(), "Accept-Encoding",
						"gzip");
			}
		}
		demo.context().getBean(PlannedChanges.class).warmUp();
		return demo;
	}

	/**
	 * Have the starter forget the bodies it kept, so that what it reuses in a case is
	 * from that case's own scrapes.
	 * @param demo the demo
	 */
	private static void forgetWhatTheStarterKept(RunningDemo demo) {
		demo.context().getBean(io.github.leanscrape.serve.Scraper.class).forgetKept();
	}

	/**
	 * Run a case on every web stack at once, each against its own demo and its own
	 * scraping servers: the cases wait on scrapes once a second, so running the stacks
	 * side by side halves the time the build spends on them. A failure on one stack is
	 * thrown once both are done, as an {@link AssertionError} that names the stack, with
	 * the other's, if any, suppressed.
	 * @param directory a directory for the scraping servers' files
	 * @param onStack the case on one stack
	 * @throws IOException if a stack's directory cannot be made
	 */
	private static void onEveryStackAtOnce(Path directory, StackCase onStack) throws IOException {
		// The demos are started here, one after the other: the map of them is not shared.
		Map<Stack, RunningDemo> running = new EnumMap<>(Stack.class);
		for (Stack stack : Stack.values()) {
			running.put(stack, demo(stack));
		}
		ExecutorService stacks = Executors.newFixedThreadPool(running.size());
		try {
			List<CompletableFuture<Void>> cases = new ArrayList<>();
			for (Stack stack : Stack.values()) {
				Path stackDirectory = Files.createDirectory(directory.resolve(stack.name()));
				cases.add(CompletableFuture.runAsync(() -> {
					try {
						onStack.run(stack, running.get(stack), stackDirectory);
					}
					catch (Exception | AssertionError ex) {
						throw new AssertionError("on " + stack + ": " + ex.getMessage(), ex);
					}
				}, stacks));
			}
			// Every failure is an Error: each stack's case wraps what it throws.
			Error failure = null;
			for (CompletableFuture<Void> stackCase : cases) {
				try {
					stackCase.join();
				}
				catch (CompletionException ex) {
					Error cause = (ex.getCause() instanceof Error error) ? error : new AssertionError(ex);
					if (failure == null) {
						failure = cause;
					}
					else {
						failure.addSuppressed(cause);
					}
				}
			}
			if (failure != null) {
				throw failure;
			}
		}
		finally {
			stacks.shutdownNow();
		}
	}

	/**
	 * One scraper never overlaps its own scrapes, and the plan's changes are the only
	 * ones to the {@code demo_} series, applied before the scrape renders: every scrape
	 * sends exactly Spring Boot's {@code demo_} lines of the moment it starts.
	 */
	@ParameterizedTest(name = "{0} on every stack")
	@EnumSource(Scraper.class)
	void everyScrapeSendsSpringBootsLinesAndTheLastIsStored(Scraper scraper, @TempDir Path directory) throws Exception {
		onEveryStackAtOnce(directory,
				(stack, demo, stackDirectory) -> oneScraper(scraper, stack, demo, stackDirectory));
	}

	private static void oneScraper(Scraper scraper, Stack stack, RunningDemo demo, Path directory) throws Exception {
		int port = demo.port();
		PlannedChanges changes = demo.context().getBean(PlannedChanges.class);
		forgetWhatTheStarterKept(demo);
		try (ScrapingServer server = scraper.start(directory, port)) {
			assertThat(server.awaitTargetUp(TARGET_UP_TIMEOUT).path("lastError").asString()).isEmpty();
			StoredDemoValues stored = new StoredDemoValues(server);
			Reuse before = Reuse.of(demo.context());
			changes.restart();
			// Counted once answered: a scrape is planned before its response is done.
			int scrapes = PLAN.length + SCRAPES_AFTER_THE_PLAN;
			await().atMost(PLAN_TIMEOUT).until(() -> changes.served().size() >= scrapes);
			Reuse reused = Reuse.of(demo.context()).since(before);
			assertThat(changes.exchanges()).as("every scrape of the plan: status, Content-Encoding")
				.hasSizeGreaterThanOrEqualTo(scrapes)
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
			assertThat(stored.value("leanscrape_fallbacks_total{scope=\"scrape\"}")).isZero();
			// Those of the plan and those while the stored values were read.
			List<ServedScrape> served = changes.served();
			assertThat(served).as("the steps scraped")
				.extracting((scrape) -> scrape.start().step())
				.containsAll(IntStream.range(0, scrapes).boxed().toList());
			assertThat(served).as("the format of every scrape")
				.allMatch((scrape) -> scrape.start().format() == scraper.format);
			assertSpringBootsLines(scraper + " on " + stack, served);
			assertReused(scraper + " on " + stack, reused);
		}
	}

	/**
	 * A Prometheus and a VictoriaMetrics at once: two kinds of body (OpenMetrics and
	 * text), two bodies and a rendering more than the default memory limit holds, so the
	 * body of one kind is dropped for room at renderings of the other and its gzip form
	 * stands in for it.
	 * <p>
	 * The change for one scraper's scrape may land while the other's body is rendered, so
	 * that body rightly differs from Spring Boot's of the moment its scrape started. Each
	 * scrape notes how many changes had been applied when it started (no change lands
	 * until Spring Boot's endpoint has rendered its reference) and when it was answered,
	 * after its body was written: if no change landed between the two, its body was
	 * rendered from what the reference was rendered from and must be Spring Boot's. That
	 * holds for every scrape from the step of the last change on, which starts with every
	 * change applied, and also for the earlier scrapes that no change overlapped.
	 */
	@Test
	void bothScrapersAtOnceStoreWhatSpringBootWrites(@TempDir Path directory) throws Exception {
		onEveryStackAtOnce(directory, ChangingScrapesIntegrationTests::bothScrapers);
	}

	private static void bothScrapers(Stack stack, RunningDemo demo, Path directory) throws Exception {
		int port = demo.port();
		PlannedChanges changes = demo.context().getBean(PlannedChanges.class);
		forgetWhatTheStarterKept(demo);
		try (ScrapingServer prometheus = Scraper.PROMETHEUS.start(Files.createDirectory(directory.resolve("p")), port);
				ScrapingServer victoriaMetrics = Scraper.VICTORIA_METRICS
					.start(Files.createDirectory(directory.resolve("v")), port)) {
			assertThat(prometheus.awaitTargetUp(TARGET_UP_TIMEOUT).path("lastError").asString()).isEmpty();
			assertThat(victoriaMetrics.awaitTargetUp(TARGET_UP_TIMEOUT).path("lastError").asString()).isEmpty();
			Reuse before = Reuse.of(demo.context());
			changes.restart();
			int scrapes = 2 * (PLAN.length + SCRAPES_AFTER_THE_PLAN);
			await().atMost(PLAN_TIMEOUT).until(() -> changes.served().size() >= scrapes);
			Reuse reused = Reuse.of(demo.context()).since(before);
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
			List<ServedScrape> served = changes.served();
			assertThat(served).as("the format of every scrape")
				.allMatch((scrape) -> scrape.start().format() == Scraper.PROMETHEUS.format
						|| scrape.start().format() == Scraper.VICTORIA_METRICS.format);
			assertThat(served).as("scrapes from the step of the last change on: none overlapped by a change")
				.filteredOn(ServedScrape::startedWithEveryChangeApplied)
				.noneMatch(ServedScrape::changedWhileServed);
			for (Scraper scraper : Scraper.values()) {
				assertThat(served).as(scraper + ": scrapes from the step of the last change on")
					.filteredOn((scrape) -> scrape.start().format() == scraper.format)
					.filteredOn(ServedScrape::startedWithEveryChangeApplied)
					.hasSizeGreaterThanOrEqualTo(SCRAPES_AFTER_THE_PLAN);
			}
			List<ServedScrape> unchangedWhileServed = new ArrayList<>();
			for (ServedScrape scrape : served) {
				if (!scrape.changedWhileServed()) {
					unchangedWhileServed.add(scrape);
				}
			}
			logger.info("Both on " + stack + ": " + (served.size() - unchangedWhileServed.size()) + " of "
					+ served.size() + " scrapes overlapped by a change, not compared");
			assertSpringBootsLines("both on " + stack, unchangedWhileServed);
			assertReused("both on " + stack, reused);
		}
	}

	/**
	 * Check that scrapes sent the {@code demo_} lines Spring Boot's endpoint wrote when
	 * each started, saving the bodies of those that did not, decoded, with Spring Boot's.
	 * @param what the case, for the message and the files
	 * @param scrapes the scrapes
	 * @throws IOException if a body cannot be saved
	 */
	private static void assertSpringBootsLines(String what, List<ServedScrape> scrapes) throws IOException {
		List<String> results = new ArrayList<>();
		List<String> differences = new ArrayList<>();
		for (ServedScrape scrape : scrapes) {
			String difference = scrape.difference();
			results.add(scrape.start().step() + ((difference != null) ? " differs" : " matches"));
			if (difference != null) {
				Path saved = scrape.save(STALE_SCRAPES.resolve(what.replaceAll("[^A-Za-z0-9]+", "-")));
				differences.add(scrape.describe() + ": " + difference + "; saved as " + saved + ".*");
			}
		}
		logger.info(what + ": demo_ lines of each step's scrape against Spring Boot's: " + results);
		assertThat(differences).as(what + ": scrapes whose demo_ lines are not Spring Boot's of their moment")
			.isEmpty();
	}

	/**
	 * Check that the starter reused what did not change in a case, as its own meter and
	 * its renderer count it in the demo.
	 * @param what the case, for the message
	 * @param reused what it reused in the case
	 */
	private static void assertReused(String what, Reuse reused) {
		assertThat(reused.gzipSegments())
			.as(what + ": gzip segments reused in this case (blocks of series copied: " + reused.blocks() + ")")
			.isPositive();
		assertThat(reused.blocks()).as(what + ": blocks of series copied in this case").isPositive();
	}

	private static int lastChangeStep() {
		for (int step = PLAN.length - 1; step >= 0; step--) {
			if (PLAN[step] != Change.NONE) {
				return step;
			}
		}
		return 0;
	}

	private static @Nullable PrometheusOutputFormat requestedFormat(@Nullable List<String> accept) {
		return FormatNegotiator.negotiate(accept).format();
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
	 * A case on one web stack.
	 */
	@FunctionalInterface
	interface StackCase {

		void run(Stack stack, RunningDemo demo, Path directory) throws Exception;

	}

	/**
	 * What changes before a scrape.
	 */
	enum Change {

		NONE, CLUSTERED, SCATTERED, ALL, ADDED, REMOVED

	}

	/**
	 * What the starter reused, read in the demo: the gzip segments sent as they were
	 * compressed for the last body (its own meter), and the blocks of series copied from
	 * the last body (its renderer's count, which no meter shows).
	 *
	 * @param gzipSegments the gzip segments reused
	 * @param blocks the blocks copied
	 */
	record Reuse(double gzipSegments, long blocks) {

		static Reuse of(ApplicationContext context) {
			double gzipSegments = context.getBean(MeterRegistry.class)
				.get("leanscrape.compression.segments")
				.tags("coding", "gzip", "outcome", "reused")
				.functionCounter()
				.count();
			return new Reuse(gzipSegments, context.getBean(DirectRenderer.class).copiedBlocks());
		}

		Reuse since(Reuse before) {
			return new Reuse(this.gzipSegments - before.gzipSegments, this.blocks - before.blocks);
		}

	}

	/**
	 * The plan and the filter that carries it out.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ChangesBeforeScrapes {

		@Bean
		PlannedChanges plannedChanges(MeterRegistry registry, PrometheusRegistry prometheusRegistry,
				PrometheusConfig prometheusConfig) {
			// Spring Boot's endpoint as the demo's reference endpoint makes it: the
			// context's PrometheusScrapeEndpoint is the starter's.
			return new PlannedChanges(registry,
					new PrometheusScrapeEndpoint(prometheusRegistry, prometheusConfig.prometheusProperties()));
		}

		/**
		 * Keep the maximums of the demo's timers and summaries from decaying: two minutes
		 * after their last recording they drop to zero, a change to {@code demo_} lines
		 * that is not the plan's and may land between a scrape's reference and its body.
		 * @return the filter
		 */
		@Bean
		MeterFilter demoStatisticsThatDoNotExpire() {
			return new MeterFilter() {

				@Override
				public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
					if (!id.getName().startsWith("demo.")) {
						return config;
					}
					return DistributionStatisticConfig.builder()
						.expiry(Duration.ofDays(3650))
						.bufferLength(1)
						.build()
						.merge(config);
				}

			};
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
	 * Applies the next change of the plan before each scrape, has Spring Boot's endpoint
	 * render the body of that moment, and records how each scrape was answered.
	 * <p>
	 * A change and the rendering of Spring Boot's body after it hold the one permit of
	 * {@link #changing}, so that no other change lands before that body is written; the
	 * scrape goes on meanwhile, as Spring Boot's endpoint renders on a thread of its own,
	 * so that it is not late by a rendering more (Prometheus gives up after 1 s).
	 */
	static final class PlannedChanges implements AutoCloseable {

		private static final int CLUSTER = 1000;

		private static final int ADDED = 500;

		private final List<Counter> counters = new ArrayList<>();

		private final MeterRegistry registry;

		private final PrometheusScrapeEndpoint springBoot;

		private final List<Meter> added = new ArrayList<>();

		private final Queue<ServedScrape> served = new ConcurrentLinkedQueue<>();

		/**
		 * Held while the plan changes, and from a change until Spring Boot's endpoint has
		 * rendered the body after it; it also guards the plan's state.
		 */
		private final Semaphore changing = new Semaphore(1);

		private final ExecutorService springBootRenderer = Executors.newSingleThreadExecutor((task) -> {
			Thread thread = new Thread(task, "spring-boot-reference");
			thread.setDaemon(true);
			return thread;
		});

		private int next = -1;

		/**
		 * How many times the plan was started, so that a scrape of an earlier run
		 * answered late is not counted in this one.
		 */
		private volatile int run;

		/**
		 * How many changes that change something were applied, counted before each is.
		 */
		private volatile int changesApplied;

		PlannedChanges(MeterRegistry registry, PrometheusScrapeEndpoint springBoot) {
			this.registry = registry;
			this.springBoot = springBoot;
		}

		/**
		 * Start the plan again with the next scrape, over the demo's counters as they are
		 * now.
		 */
		void restart() {
			this.changing.acquireUninterruptibly();
			try {
				this.counters.clear();
				for (Meter meter : this.registry.getMeters()) {
					if (meter instanceof Counter counter && meter.getId().getName().startsWith("demo.")) {
						this.counters.add(counter);
					}
				}
				// The order of the body: by name, then by tags.
				this.counters.sort((a, b) -> a.getId().toString().compareTo(b.getId().toString()));
				this.next = 0;
				this.run++;
				this.served.clear();
			}
			finally {
				this.changing.release();
			}
		}

		/**
		 * Render with Spring Boot's endpoint a few times, as no scrape waits on it.
		 */
		void warmUp() {
			for (int i = 0; i < WARM_UP_RENDERINGS; i++) {
				for (Scraper scraper : Scraper.values()) {
					this.springBoot.scrape(scraper.format, null);
				}
			}
		}

		/**
		 * Return the scrapes of the plan answered so far.
		 * @return the scrapes, in the order they were answered
		 */
		List<ServedScrape> served() {
			return new ArrayList<>(this.served);
		}

		List<String> exchanges() {
			List<String> exchanges = new ArrayList<>();
			for (ServedScrape scrape : this.served) {
				exchanges.add(scrape.exchange());
			}
			return exchanges;
		}

		/**
		 * Apply the plan's next change, then start Spring Boot's endpoint rendering the
		 * body in the format asked for; no other change lands until it has.
		 * @param format the format the scrape asks for, or {@code null} when its
		 * {@code Accept} header cannot be read
		 * @return the scrape as it starts
		 */
		ScrapeStart beforeScrape(@Nullable PrometheusOutputFormat format) {
			this.changing.acquireUninterruptibly();
			boolean rendering = false;
			try {
				if (this.next < 0) {
					return new ScrapeStart(this.run, -1, format, CompletableFuture.completedFuture(new byte[0]),
							this.changesApplied);
				}
				int step = this.next++;
				if (step < PLAN.length) {
					apply(PLAN[step]);
				}
				CompletableFuture<byte[]> reference = CompletableFuture.supplyAsync(() -> {
					try {
						byte[] body = (format != null) ? this.springBoot.scrape(format, null).getBody() : null;
						return (body != null) ? body : new byte[0];
					}
					finally {
						this.changing.release();
					}
				}, this.springBootRenderer);
				rendering = true;
				return new ScrapeStart(this.run, step, format, reference, this.changesApplied);
			}
			finally {
				if (!rendering) {
					this.changing.release();
				}
			}
		}

		/**
		 * Record a scrape once answered, its body written.
		 * @param start the scrape as it started
		 * @param status the status of its response
		 * @param contentType the {@code Content-Type} of its response
		 * @param contentEncoding the {@code Content-Encoding} of its response
		 * @param sent the bytes its response sent
		 */
		void answered(ScrapeStart start, int status, @Nullable String contentType, @Nullable String contentEncoding,
				byte[] sent) {
			if (start.run() == this.run) {
				this.served
					.add(new ServedScrape(start, status, contentType, contentEncoding, sent, this.changesApplied));
			}
		}

		@Override
		public void close() {
			this.springBootRenderer.shutdownNow();
		}

		private void apply(Change change) {
			if (change != Change.NONE) {
				// Counted first: a scrape that reads the count after this change began
				// sees it.
				this.changesApplied++;
			}
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

	/**
	 * A scrape as it started: its step of the plan, the format it asked for, Spring
	 * Boot's body once the step's change was applied, and how many changes had been.
	 *
	 * @param run the run of the plan
	 * @param step the step of the plan, or {@code -1} before the plan starts
	 * @param format the format asked for, or {@code null} when it cannot be told
	 * @param reference what Spring Boot's endpoint wrote, once it has
	 * @param changesApplied how many changes had been applied
	 */
	record ScrapeStart(int run, int step, @Nullable PrometheusOutputFormat format, CompletableFuture<byte[]> reference,
			int changesApplied) {

		boolean planned() {
			return this.step >= 0;
		}

		Change change() {
			return (this.step < PLAN.length) ? PLAN[this.step] : Change.NONE;
		}

	}

	/**
	 * A scrape as answered: what its response sent, and whether a change was applied
	 * while it was served.
	 */
	static final class ServedScrape {

		private final ScrapeStart start;

		private final int status;

		private final @Nullable String contentType;

		private final @Nullable String contentEncoding;

		private final byte[] sent;

		private final int changesAppliedWhenAnswered;

		ServedScrape(ScrapeStart start, int status, @Nullable String contentType, @Nullable String contentEncoding,
				byte[] sent, int changesAppliedWhenAnswered) {
			this.start = start;
			this.status = status;
			this.contentType = contentType;
			this.contentEncoding = contentEncoding;
			this.sent = sent;
			this.changesAppliedWhenAnswered = changesAppliedWhenAnswered;
		}

		ScrapeStart start() {
			return this.start;
		}

		String exchange() {
			return this.status + " " + this.contentEncoding;
		}

		boolean changedWhileServed() {
			return this.changesAppliedWhenAnswered != this.start.changesApplied();
		}

		boolean startedWithEveryChangeApplied() {
			return this.start.step() >= LAST_CHANGE_STEP;
		}

		/**
		 * Return how the {@code demo_} lines this scrape sent differ from Spring Boot's.
		 * @return the first difference, or {@code null} when there is none
		 */
		@Nullable String difference() {
			PrometheusOutputFormat format = this.start.format();
			if (format == null) {
				return "no format could be told from its Accept header";
			}
			if (formatOf(this.contentType) != format) {
				return "sent as " + this.contentType + ", asked for " + format.getProducedMimeType();
			}
			byte[] body;
			try {
				body = decoded();
			}
			catch (IOException ex) {
				return "its body does not decode: " + ex;
			}
			List<String> sentLines = demoLines(body);
			List<String> referenceLines = demoLines(this.start.reference().join());
			int first = 0;
			while (first < sentLines.size() && first < referenceLines.size()
					&& sentLines.get(first).equals(referenceLines.get(first))) {
				first++;
			}
			if (first == sentLines.size() && first == referenceLines.size()) {
				return null;
			}
			String sentLine = (first < sentLines.size()) ? "\"" + sentLines.get(first) + "\"" : "nothing";
			String referenceLine = (first < referenceLines.size()) ? "\"" + referenceLines.get(first) + "\""
					: "nothing";
			return "demo_ line " + (first + 1) + " sent " + sentLine + ", Spring Boot wrote " + referenceLine + " ("
					+ sentLines.size() + " demo_ lines sent, " + referenceLines.size() + " written by Spring Boot; "
					+ unmatched(sentLines, referenceLines) + " sent that Spring Boot did not write, "
					+ unmatched(referenceLines, sentLines) + " written that were not sent)";
		}

		/**
		 * Return how many lines of one list the other lacks, wherever they are.
		 * @param lines the lines to look for
		 * @param in the lines to look in
		 * @return how many are not there
		 */
		private static int unmatched(List<String> lines, List<String> in) {
			Map<String, Integer> remaining = new HashMap<>();
			for (String line : in) {
				remaining.merge(line, 1, Integer::sum);
			}
			int unmatched = 0;
			for (String line : lines) {
				Integer count = remaining.get(line);
				if (count == null || count == 0) {
					unmatched++;
				}
				else {
					remaining.put(line, count - 1);
				}
			}
			return unmatched;
		}

		String describe() {
			String step = (this.start.step() < PLAN.length)
					? "step " + this.start.step() + " (" + this.start.change() + ")"
					: "step " + this.start.step() + " (after the plan)";
			return step + ", " + this.contentType + ", Content-Encoding " + this.contentEncoding
					+ (changedWhileServed() ? ", a change landed while it was served" : "");
		}

		/**
		 * Save the decoded body and Spring Boot's.
		 * @param directory where to save them
		 * @return the path of both, less their extensions
		 * @throws IOException if they cannot be written
		 */
		Path save(Path directory) throws IOException {
			Files.createDirectories(directory);
			String format = (this.start.format() != null) ? this.start.format().name() : "unknown";
			Path saved = directory.resolve("step-" + this.start.step() + "-" + format);
			byte[] body;
			try {
				body = decoded();
			}
			catch (IOException ex) {
				body = this.sent;
			}
			Files.write(saved.resolveSibling(saved.getFileName() + ".body"), body);
			Files.write(saved.resolveSibling(saved.getFileName() + ".reference"), this.start.reference().join());
			return saved.toAbsolutePath();
		}

		private byte[] decoded() throws IOException {
			if (this.contentEncoding == null || this.contentEncoding.equals("identity")) {
				return this.sent;
			}
			if (!this.contentEncoding.equals("gzip")) {
				throw new IOException("Content-Encoding " + this.contentEncoding + " is not decoded here");
			}
			try (InputStream decoding = new GZIPInputStream(new ByteArrayInputStream(this.sent))) {
				return decoding.readAllBytes();
			}
		}

		private static List<String> demoLines(byte[] body) {
			List<String> lines = new ArrayList<>();
			for (String line : new String(body, StandardCharsets.UTF_8).split("\n")) {
				if (line.startsWith("demo_") || line.startsWith("# HELP demo_") || line.startsWith("# TYPE demo_")
						|| line.startsWith("# UNIT demo_")) {
					lines.add(line);
				}
			}
			return lines;
		}

		private static @Nullable PrometheusOutputFormat formatOf(@Nullable String contentType) {
			if (contentType == null) {
				return null;
			}
			MimeType sent = MimeTypeUtils.parseMimeType(contentType);
			for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
				MimeType produced = format.getProducedMimeType();
				if (produced.equalsTypeAndSubtype(sent)
						&& Objects.equals(produced.getParameter("version"), sent.getParameter("version"))) {
					return format;
				}
			}
			return null;
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
			ScrapeStart start = this.changes
				.beforeScrape(requestedFormat(Collections.list(request.getHeaders(HttpHeaders.ACCEPT))));
			if (!start.planned()) {
				chain.doFilter(request, response);
				return;
			}
			CopyingServletResponse copying = new CopyingServletResponse(response);
			try {
				chain.doFilter(request, copying);
			}
			finally {
				this.changes.answered(start, copying.getStatus(), copying.getContentType(),
						copying.getHeader(HttpHeaders.CONTENT_ENCODING), copying.written());
			}
		}

	}

	/**
	 * A servlet response that keeps a copy of the bytes written to its output stream.
	 */
	private static final class CopyingServletResponse extends HttpServletResponseWrapper {

		private final ByteArrayOutputStream written = new ByteArrayOutputStream();

		private @Nullable ServletOutputStream outputStream;

		CopyingServletResponse(HttpServletResponse response) {
			super(response);
		}

		@Override
		public ServletOutputStream getOutputStream() throws IOException {
			ServletOutputStream outputStream = this.outputStream;
			if (outputStream == null) {
				outputStream = new CopyingOutputStream(super.getOutputStream(), this.written);
				this.outputStream = outputStream;
			}
			return outputStream;
		}

		byte[] written() {
			return this.written.toByteArray();
		}

	}

	/**
	 * A servlet output stream that copies what it writes.
	 */
	private static final class CopyingOutputStream extends ServletOutputStream {

		private final ServletOutputStream delegate;

		private final ByteArrayOutputStream copy;

		CopyingOutputStream(ServletOutputStream delegate, ByteArrayOutputStream copy) {
			this.delegate = delegate;
			this.copy = copy;
		}

		@Override
		public void write(int b) throws IOException {
			this.delegate.write(b);
			this.copy.write(b);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			this.delegate.write(b, off, len);
			this.copy.write(b, off, len);
		}

		@Override
		public void flush() throws IOException {
			this.delegate.flush();
		}

		@Override
		public void close() throws IOException {
			this.delegate.close();
		}

		@Override
		public boolean isReady() {
			return this.delegate.isReady();
		}

		@Override
		public void setWriteListener(WriteListener writeListener) {
			this.delegate.setWriteListener(writeListener);
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
			if (!SCRAPE_PATH.equals(exchange.getRequest().getPath().value())) {
				return chain.filter(exchange);
			}
			PrometheusOutputFormat format = requestedFormat(exchange.getRequest().getHeaders().get(HttpHeaders.ACCEPT));
			// Off the event loop: the change and Spring Boot's rendering take a while.
			return Mono.fromCallable(() -> this.changes.beforeScrape(format))
				.subscribeOn(Schedulers.boundedElastic())
				.flatMap((start) -> start.planned() ? served(start, exchange, chain) : chain.filter(exchange));
		}

		private Mono<Void> served(ScrapeStart start, ServerWebExchange exchange, WebFilterChain chain) {
			CopyingServerResponse copying = new CopyingServerResponse(exchange.getResponse());
			return chain.filter(exchange.mutate().response(copying).build()).doFinally((signal) -> {
				HttpStatusCode status = copying.getStatusCode();
				this.changes.answered(start, (status != null) ? status.value() : 200,
						copying.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE),
						copying.getHeaders().getFirst(HttpHeaders.CONTENT_ENCODING), copying.written());
			});
		}

	}

	/**
	 * A reactive response that keeps a copy of the bytes of the buffers it writes,
	 * leaving their read positions as they were.
	 */
	private static final class CopyingServerResponse extends ServerHttpResponseDecorator {

		private final ByteArrayOutputStream written = new ByteArrayOutputStream();

		CopyingServerResponse(ServerHttpResponse delegate) {
			super(delegate);
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			return super.writeWith(Flux.from(body).doOnNext(this::copy));
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			return super.writeAndFlushWith(Flux.from(body).map((buffers) -> Flux.from(buffers).doOnNext(this::copy)));
		}

		private void copy(DataBuffer buffer) {
			try (DataBuffer.ByteBufferIterator readable = buffer.readableByteBuffers()) {
				while (readable.hasNext()) {
					ByteBuffer bytes = readable.next();
					byte[] copy = new byte[bytes.remaining()];
					bytes.get(copy);
					this.written.write(copy, 0, copy.length);
				}
			}
		}

		byte[] written() {
			return this.written.toByteArray();
		}

	}

}
