package io.github.leanscrape.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.github.leanscrape.compression.GzipEncoder;
import io.github.leanscrape.compression.ZstdEncoder;
import io.github.leanscrape.endpoint.CardinalityEndpoint;
import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.ExpositionRenderer;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.exposition.direct.DirectRenderer;
import io.github.leanscrape.exposition.direct.RenderStatistics;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.metrics.MicrometerSelfMetrics;
import io.github.leanscrape.serve.ScrapeResponder;
import io.github.leanscrape.serve.Scraper;
import io.github.leanscrape.serve.SelfMetrics;
import io.github.leanscrape.web.reactive.ScrapeNegotiationWebFilter;
import io.github.leanscrape.web.reactive.ScrapeScheduler;
import io.github.leanscrape.web.servlet.ScrapeNegotiationFilter;
import io.micrometer.core.instrument.MeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.actuate.web.WebFluxEndpointManagementContextConfiguration;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.actuate.web.WebMvcEndpointManagementContextConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every condition of {@link LeanscrapeAutoConfiguration} and of the web glue.
 */
class LeanscrapeAutoConfigurationTests {

	private static final AutoConfigurations METRICS = AutoConfigurations.of(MetricsAutoConfiguration.class,
			PrometheusMetricsExportAutoConfiguration.class, EndpointAutoConfiguration.class,
			WebEndpointAutoConfiguration.class, LeanscrapeAutoConfiguration.class,
			LeanscrapeScrapeAutoConfiguration.class);

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(METRICS)
		.withPropertyValues("management.endpoints.web.exposure.include=prometheus");

	@Test
	void replacesSpringBootsEndpoint() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(PrometheusScrapeEndpoint.class);
			assertThat(context.getBean(PrometheusScrapeEndpoint.class)).isInstanceOf(LeanscrapeScrapeEndpoint.class);
			assertThat(context).hasSingleBean(Scraper.class);
		});
	}

	@Test
	void disabledGivesBackSpringBootsEndpoint() {
		this.runner.withPropertyValues("leanscrape.enabled=false").run((context) -> {
			assertThat(context).hasSingleBean(PrometheusScrapeEndpoint.class);
			assertThat(context.getBean(PrometheusScrapeEndpoint.class).getClass())
				.isEqualTo(PrometheusScrapeEndpoint.class);
			assertThat(context).doesNotHaveBean(Scraper.class);
		});
	}

	@Test
	void backsOffWhenEndpointNotExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=health").run((context) -> {
			assertThat(context).doesNotHaveBean(PrometheusScrapeEndpoint.class);
			assertThat(context).doesNotHaveBean(Scraper.class);
		});
	}

	@Test
	void backsOffWhenEndpointAccessIsNone() {
		this.runner.withPropertyValues("management.endpoint.prometheus.access=NONE").run((context) -> {
			assertThat(context).doesNotHaveBean(PrometheusScrapeEndpoint.class);
			assertThat(context).doesNotHaveBean(Scraper.class);
		});
	}

	@Test
	void backsOffWhenPrometheusExportIsDisabled() {
		this.runner.withPropertyValues("management.prometheus.metrics.export.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(PrometheusRegistry.class);
			assertThat(context).doesNotHaveBean(PrometheusScrapeEndpoint.class);
			assertThat(context).doesNotHaveBean(Scraper.class);
		});
	}

	@Test
	void backsOffWithoutMetrics() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
							LeanscrapeAutoConfiguration.class, LeanscrapeScrapeAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus")
			.run((context) -> assertThat(context).doesNotHaveBean(Scraper.class));
	}

	@Test
	void backsOffWithoutPrometheusRegistryOnClassPath() {
		this.runner.withClassLoader(new FilteredClassLoader("io.micrometer.prometheusmetrics"))
			.run((context) -> assertThat(context).doesNotHaveBean(Scraper.class));
	}

	@Test
	void backsOffForUserDefinedEndpoint() {
		this.runner.withUserConfiguration(UserEndpointConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(PrometheusScrapeEndpoint.class);
			assertThat(context.getBean(PrometheusScrapeEndpoint.class))
				.isSameAs(context.getBean(UserEndpointConfiguration.class).endpoint);
			assertThat(context).doesNotHaveBean(LeanscrapeScrapeEndpoint.class);
		});
	}

	@Test
	void userDefinedScraperIsUsed() {
		this.runner.withUserConfiguration(UserScraperConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(Scraper.class);
			assertThat(context.getBean(Scraper.class))
				.isSameAs(context.getBean(UserScraperConfiguration.class).scraper);
			assertThat(context.getBean(LeanscrapeScrapeEndpoint.class)).extracting("scraper")
				.isSameAs(context.getBean(UserScraperConfiguration.class).scraper);
		});
	}

	@Test
	void compressionCanBeTurnedOff() {
		this.runner.withPropertyValues("leanscrape.compression.enabled=false").run((context) -> {
			assertThat(context.getBean(Scraper.class).codings()).isEmpty();
			assertThat(context).doesNotHaveBean(GzipEncoder.class);
			assertThat(context).doesNotHaveBean(ZstdEncoder.class);
		});
		this.runner.run((context) -> {
			assertThat(context.getBean(Scraper.class).codings()).containsExactlyInAnyOrder(ContentCoding.GZIP,
					ContentCoding.ZSTD);
			assertThat(context).hasSingleBean(GzipEncoder.class);
			assertThat(context).hasSingleBean(ZstdEncoder.class);
		});
	}

	@Test
	void zstdCanBeTurnedOffAlone() {
		this.runner.withPropertyValues("leanscrape.compression.zstd.enabled=false", "leanscrape.compression.level=6")
			.run((context) -> {
				assertThat(context.getBean(Scraper.class).codings()).containsExactly(ContentCoding.GZIP);
				assertThat(context).doesNotHaveBean(ZstdEncoder.class);
				assertThat(context.getBean(GzipEncoder.class)).hasFieldOrPropertyWithValue("level", 6);
			});
	}

	@Test
	void zstdIsOfferedOnlyWithZstdJniOnTheClassPath() {
		this.runner.withClassLoader(new FilteredClassLoader("com.github.luben.zstd")).run((context) -> {
			assertThat(context.getBean(Scraper.class).codings()).containsExactly(ContentCoding.GZIP);
			assertThat(context).doesNotHaveBean(ZstdEncoder.class);
		});
	}

	@Test
	void zstdLevelIsTheProperty() {
		this.runner.withPropertyValues("leanscrape.compression.zstd.level=7")
			.run((context) -> assertThat(context.getBean(ZstdEncoder.class)).hasFieldOrPropertyWithValue("level", 7));
	}

	@Test
	void reuseIsOnByDefaultAndTheReuseEnabledPropertyTurnsItOff() {
		this.runner.run((context) -> assertThat(context.getBean(Scraper.class)).extracting("kept")
			.hasFieldOrPropertyWithValue("enabled", true));
		this.runner.withPropertyValues("leanscrape.reuse.enabled=false")
			.run((context) -> assertThat(context.getBean(Scraper.class)).extracting("kept")
				.hasFieldOrPropertyWithValue("enabled", false));
	}

	@Test
	void directRendererByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(ExpositionRenderer.class);
			assertThat(context).hasSingleBean(DirectRenderer.class);
			assertThat(context).hasSingleBean(RenderStatistics.class);
			assertThat(context).doesNotHaveBean(ReferenceRenderer.class);
		});
	}

	@Test
	void referenceRendererWhenDirectPathIsOff() {
		this.runner.withPropertyValues("leanscrape.direct.enabled=false").run((context) -> {
			assertThat(context).hasSingleBean(ExpositionRenderer.class);
			assertThat(context).hasSingleBean(ReferenceRenderer.class);
			assertThat(context).doesNotHaveBean(RenderStatistics.class);
		});
	}

	@Test
	void userDefinedRendererIsUsed() {
		this.runner.withUserConfiguration(UserRendererConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(ExpositionRenderer.class);
			assertThat(context.getBean(ExpositionRenderer.class))
				.isSameAs(context.getBean(UserRendererConfiguration.class).renderer);
		});
	}

	@Test
	void ownMetricsByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(MicrometerSelfMetrics.class);
			assertThat(context.getBean(MeterRegistry.class).find("leanscrape.scrapes").counters()).isNotEmpty();
			assertThat(context.getBean(MeterRegistry.class).find("leanscrape.fallbacks").functionCounters()).hasSize(2);
		});
	}

	@Test
	void ownMetricsCanBeTurnedOff() {
		this.runner.withPropertyValues("leanscrape.metrics.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(SelfMetrics.class);
			assertThat(context).hasSingleBean(ScrapeResponder.class);
			assertThat(context.getBean(MeterRegistry.class).find("leanscrape.scrapes").counters()).isEmpty();
		});
	}

	@Test
	void userDefinedScrapeMetricsAreUsed() {
		this.runner.withUserConfiguration(UserScrapeMetricsConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(SelfMetrics.class);
			assertThat(context).doesNotHaveBean(MicrometerSelfMetrics.class);
		});
	}

	@Test
	void cardinalityEndpointOnlyWhenExposed() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(CardinalityEndpoint.class));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=prometheus,leanscrape")
			.run((context) -> assertThat(context).hasSingleBean(CardinalityEndpoint.class));
	}

	@Test
	void invalidCompressionLevelFailsStartup() {
		this.runner.withPropertyValues("leanscrape.compression.level=12")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void servletGlueInServletApplication() {
		new WebApplicationContextRunner().withConfiguration(METRICS)
			.withConfiguration(AutoConfigurations.of(ManagementContextAutoConfiguration.class,
					DispatcherServletAutoConfiguration.class, WebMvcAutoConfiguration.class,
					WebMvcEndpointManagementContextConfiguration.class,
					LeanscrapeServletManagementContextConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus")
			.run((context) -> {
				assertThat(context).hasSingleBean(ScrapeNegotiationFilter.class);
				assertThat(context).hasBean("leanscrapeWebMvcConfigurer");
				assertThat(context.getBean("leanscrapeWebMvcConfigurer")).isInstanceOf(WebMvcConfigurer.class);
				assertThat(context).doesNotHaveBean(ScrapeNegotiationWebFilter.class);
			});
	}

	@Test
	void noServletGlueWhenDisabled() {
		new WebApplicationContextRunner().withConfiguration(METRICS)
			.withConfiguration(AutoConfigurations.of(ManagementContextAutoConfiguration.class,
					DispatcherServletAutoConfiguration.class, WebMvcAutoConfiguration.class,
					WebMvcEndpointManagementContextConfiguration.class,
					LeanscrapeServletManagementContextConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus", "leanscrape.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ScrapeNegotiationFilter.class);
				assertThat(context).doesNotHaveBean("leanscrapeWebMvcConfigurer");
			});
	}

	@Test
	void reactiveGlueInReactiveApplication() {
		new ReactiveWebApplicationContextRunner().withConfiguration(METRICS)
			.withConfiguration(AutoConfigurations.of(WebFluxAutoConfiguration.class,
					WebFluxEndpointManagementContextConfiguration.class,
					LeanscrapeReactiveManagementContextConfiguration.class,
					LeanscrapeServletManagementContextConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus")
			.run((context) -> {
				assertThat(context).hasSingleBean(ScrapeNegotiationWebFilter.class);
				assertThat(context.getBean("leanscrapeWebFluxConfigurer")).isInstanceOf(WebFluxConfigurer.class);
				assertThat(context).doesNotHaveBean(ScrapeNegotiationFilter.class);
			});
	}

	@Test
	void reactiveScrapesRunOnTheStartersPlatformThreads() {
		reactiveGlue().run((context) -> assertThat(context.getBean(ScrapeScheduler.class).isVirtual()).isFalse());
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void reactiveScrapesRunOnVirtualThreadsWhenTheApplicationUsesThem() {
		reactiveGlue().withPropertyValues("spring.threads.virtual.enabled=true")
			.run((context) -> assertThat(context.getBean(ScrapeScheduler.class).isVirtual()).isTrue());
	}

	private static ReactiveWebApplicationContextRunner reactiveGlue() {
		return new ReactiveWebApplicationContextRunner().withConfiguration(METRICS)
			.withConfiguration(AutoConfigurations.of(WebFluxAutoConfiguration.class,
					WebFluxEndpointManagementContextConfiguration.class,
					LeanscrapeReactiveManagementContextConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus");
	}

	@Test
	void noReactiveGlueWhenDisabled() {
		new ReactiveWebApplicationContextRunner().withConfiguration(METRICS)
			.withConfiguration(AutoConfigurations.of(WebFluxAutoConfiguration.class,
					WebFluxEndpointManagementContextConfiguration.class,
					LeanscrapeReactiveManagementContextConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=prometheus", "leanscrape.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ScrapeNegotiationWebFilter.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class UserRendererConfiguration {

		final ExpositionRenderer renderer = (format, includedNames, out) -> out.writeAscii("mine\n");

		@Bean
		ExpositionRenderer userRenderer() {
			return this.renderer;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserScrapeMetricsConfiguration {

		@Bean
		SelfMetrics userScrapeMetrics() {
			return SelfMetrics.NONE;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserEndpointConfiguration {

		PrometheusScrapeEndpoint endpoint;

		@Bean
		PrometheusScrapeEndpoint userEndpoint(PrometheusRegistry registry) {
			this.endpoint = new PrometheusScrapeEndpoint(registry, null);
			return this.endpoint;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserScraperConfiguration {

		Scraper scraper;

		@Bean
		Scraper userScraper(ExpositionRenderer renderer) {
			ChunkPool pool = new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, 0);
			this.scraper = new Scraper(renderer, pool, new SizeHints(pool, 0), List.of(), 1, Duration.ZERO, 0, true);
			return this.scraper;
		}

	}

}
