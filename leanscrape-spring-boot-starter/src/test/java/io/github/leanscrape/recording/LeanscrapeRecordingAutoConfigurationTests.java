package io.github.leanscrape.recording;

import java.util.EnumSet;
import java.util.HashMap;

import io.github.leanscrape.autoconfigure.LeanscrapeRecordingAutoConfiguration;
import io.github.leanscrape.recording.reactive.BypassedObservationRegistry;
import io.github.leanscrape.recording.reactive.CachingReactiveServerRequestObservationConvention;
import io.github.leanscrape.recording.reactive.ReactiveServerRequestRecording;
import io.github.leanscrape.recording.reactive.ServerRequestRecordingWebHandler;
import io.github.leanscrape.recording.servlet.CachingServerRequestObservationConvention;
import io.github.leanscrape.recording.servlet.ServerRequestMetricsFilter;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import jakarta.servlet.DispatcherType;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxObservationAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebHttpHandlerBuilderCustomizer;
import org.springframework.boot.webmvc.autoconfigure.WebMvcObservationAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.http.server.observation.ServerRequestObservationConvention;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;
import org.springframework.web.server.handler.ExceptionHandlingWebHandler;
import org.springframework.web.servlet.DispatcherServlet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeanscrapeRecordingAutoConfiguration}.
 */
class LeanscrapeRecordingAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withPropertyValues("management.metrics.use-global-registry=false")
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				LeanscrapeRecordingAutoConfiguration.class));

	private final WebApplicationContextRunner webRunner = new WebApplicationContextRunner()
		.withPropertyValues("management.metrics.use-global-registry=false")
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				LeanscrapeRecordingAutoConfiguration.class, WebMvcObservationAutoConfiguration.class));

	private final ReactiveWebApplicationContextRunner reactiveRunner = new ReactiveWebApplicationContextRunner()
		.withPropertyValues("management.metrics.use-global-registry=false")
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				LeanscrapeRecordingAutoConfiguration.class, WebFluxObservationAutoConfiguration.class,
				WebFluxAutoConfiguration.class, HttpHandlerAutoConfiguration.class));

	@Test
	void handlerRecordsEveryObservationInPlaceOfTheDefaultHandler() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(CachingMeterObservationHandler.class);
			// Spring Boot's default handler is still defined, but never asked.
			assertThat(context).hasSingleBean(DefaultMeterObservationHandler.class);
			observeTwice(context);
			Timer timer = context.getBean(MeterRegistry.class).get("test.work").timer();
			assertThat(timer.count()).isEqualTo(2);
			assertThat(context.getBean(MeterRegistry.class).get("test.work.active").longTaskTimer()).isNotNull();
			assertThat(context.getBean(CachingMeterObservationHandler.class).cachedMeterCount()).isEqualTo(2);
		});
	}

	@Test
	void handlerIsOrderedBeforeTheDefaultHandler() {
		this.runner
			.run((context) -> assertThat(context.getBeanProvider(MeterObservationHandler.class).orderedStream()).first()
				.isInstanceOf(CachingMeterObservationHandler.class));
	}

	@Test
	void backsOffWhenDisabled() {
		this.runner.withPropertyValues("leanscrape.recording.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(CachingMeterObservationHandler.class);
			observeTwice(context);
			// The default handler records as usual.
			assertThat(context.getBean(MeterRegistry.class).get("test.work").timer().count()).isEqualTo(2);
		});
	}

	@Test
	void isOnByDefaultAndOnWhenEnabledExplicitly() {
		this.runner.withPropertyValues("leanscrape.recording.enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(CachingMeterObservationHandler.class));
	}

	@Test
	void backsOffWithoutAMeterRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
					LeanscrapeRecordingAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CachingMeterObservationHandler.class));
	}

	@Test
	void backsOffWithoutMicrometerObservation() {
		this.runner.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CachingMeterObservationHandler.class));
	}

	@Test
	void backsOffWithoutMeterObservationHandler() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterObservationHandler.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CachingMeterObservationHandler.class));
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnHandler() {
		this.runner.withUserConfiguration(CustomHandlerConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(CachingMeterObservationHandler.class);
			assertThat(context).getBean(CachingMeterObservationHandler.class)
				.isSameAs(context.getBean("customHandler"));
		});
	}

	@Test
	void honoursIgnoredLongTaskTimers() {
		this.runner.withPropertyValues("management.metrics.observations.ignored-meters=long-task-timer")
			.run((context) -> {
				observeTwice(context);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("test.work").timer().count()).isEqualTo(2);
				assertThat(registry.find("test.work.active").longTaskTimer()).isNull();
				assertThat(context.getBean(CachingMeterObservationHandler.class).cachedMeterCount()).isEqualTo(1);
			});
	}

	@Test
	void honoursMaxCachedMeters() {
		this.runner.withPropertyValues("leanscrape.recording.max-cached-meters=1").run((context) -> {
			ObservationRegistry observations = context.getBean(ObservationRegistry.class);
			for (String kind : new String[] { "a", "b", "c" }) {
				Observation.createNotStarted("test.work", observations)
					.lowCardinalityKeyValue("kind", kind)
					.start()
					.stop();
			}
			assertThat(context.getBean(CachingMeterObservationHandler.class).cachedMeterCount()).isEqualTo(1);
			assertThat(context.getBean(MeterRegistry.class).get("test.work").timers()).hasSize(3);
		});
	}

	@Test
	void directServerRequestsCanBeTurnedOff() {
		this.webRunner.withPropertyValues("leanscrape.recording.direct-server-requests=false")
			.run((context) -> assertThat(observationFilter(context))
				.isExactlyInstanceOf(ServerHttpObservationFilter.class));
	}

	@Test
	void directServerRequestsReplaceSpringBootsFilterByDefault() {
		this.webRunner.run((context) -> {
			assertThat(context).getBeans(FilterRegistrationBean.class).hasSize(1);
			FilterRegistrationBean<?> registration = context.getBean(FilterRegistrationBean.class);
			assertThat(registration.getFilter()).isInstanceOf(ServerRequestMetricsFilter.class);
			// Registered as Spring Boot registers its own.
			assertThat(registration.getOrder()).isEqualTo(Ordered.HIGHEST_PRECEDENCE + 1);
			assertThat(registration).extracting("dispatcherTypes")
				.isEqualTo(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
		});
	}

	@Test
	void directServerRequestsAreCountedAmongTheStartersOwnMeters() {
		this.webRunner.run((context) -> assertThat(
				context.getBean(MeterRegistry.class).find(ServerRequestMetricsFilter.REQUESTS_METER).functionCounters())
			.hasSize(2));
		this.webRunner.withPropertyValues("leanscrape.metrics.enabled=false").run((context) -> {
			assertThat(context.getBean(FilterRegistrationBean.class).getFilter())
				.isInstanceOf(ServerRequestMetricsFilter.class);
			assertThat(context.getBean(MeterRegistry.class)
				.find(ServerRequestMetricsFilter.REQUESTS_METER)
				.functionCounters()).isEmpty();
		});
	}

	@Test
	void directServerRequestsNeedRecording() {
		this.webRunner
			.withPropertyValues("leanscrape.recording.direct-server-requests=true",
					"leanscrape.recording.enabled=false")
			.run((context) -> assertThat(observationFilter(context))
				.isExactlyInstanceOf(ServerHttpObservationFilter.class));
	}

	@Test
	void directServerRequestsBackOffForTheApplicationsOwnFilter() {
		this.webRunner.withPropertyValues("leanscrape.recording.direct-server-requests=true")
			.withUserConfiguration(CustomObservationFilterConfiguration.class)
			.run((context) -> {
				assertThat(context).getBeans(FilterRegistrationBean.class).hasSize(1);
				assertThat(context.getBean(FilterRegistrationBean.class)).isSameAs(context.getBean("customFilter"));
			});
	}

	@Test
	void directServerRequestsNeedAServletApplication() {
		this.runner.withPropertyValues("leanscrape.recording.direct-server-requests=true")
			.withConfiguration(AutoConfigurations.of(WebMvcObservationAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(FilterRegistrationBean.class));
		new ReactiveWebApplicationContextRunner()
			.withPropertyValues("management.metrics.use-global-registry=false",
					"leanscrape.recording.direct-server-requests=true")
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
					SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
					LeanscrapeRecordingAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(CachingMeterObservationHandler.class);
				assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
			});
	}

	@Test
	void directServerRequestsNeedSpringMvc() {
		this.webRunner.withPropertyValues("leanscrape.recording.direct-server-requests=true")
			.withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
			.run((context) -> assertThat(context).doesNotHaveBean(FilterRegistrationBean.class));
	}

	@Test
	void reactiveDirectServerRequestsRewrapSpringsAdapterByDefault() {
		this.reactiveRunner.run((context) -> {
			assertThat(context).hasSingleBean(WebHttpHandlerBuilderCustomizer.class);
			ServerRequestRecordingWebHandler recording = recordingWebHandler(context);
			assertThat(recording.isBypassingObservations()).isTrue();
			assertThat(recording.getDelegate()).isInstanceOf(ExceptionHandlingWebHandler.class);
			HttpWebHandlerAdapter adapter = (HttpWebHandlerAdapter) context.getBean(HttpHandler.class);
			assertThat(adapter.getObservationRegistry()).isInstanceOf(BypassedObservationRegistry.class)
				.extracting((registry) -> ((BypassedObservationRegistry) registry).registry())
				.isSameAs(context.getBean(ObservationRegistry.class));
			assertThat(adapter.getObservationConvention())
				.isSameAs(context.getBean(CachingReactiveServerRequestObservationConvention.class));
			assertThat(adapter.getApplicationContext()).isSameAs(context.getSourceApplicationContext());
			assertThat(context.getBean(MeterRegistry.class)
				.get(ReactiveServerRequestRecording.REQUESTS_METER)
				.functionCounters()).hasSize(2);
		});
	}

	@Test
	void reactiveDirectServerRequestsAreNotCountedWithoutTheStartersOwnMeters() {
		this.reactiveRunner.withPropertyValues("leanscrape.metrics.enabled=false").run((context) -> {
			assertThat(recordingWebHandler(context).isBypassingObservations()).isTrue();
			assertThat(context.getBean(MeterRegistry.class)
				.find(ReactiveServerRequestRecording.REQUESTS_METER)
				.functionCounters()).isEmpty();
		});
	}

	@Test
	void reactiveDirectServerRequestsCanBeTurnedOff() {
		this.reactiveRunner.withPropertyValues("leanscrape.recording.direct-server-requests=false").run((context) -> {
			assertThat(context).doesNotHaveBean(WebHttpHandlerBuilderCustomizer.class);
			assertThat(((HttpWebHandlerAdapter) context.getBean(HttpHandler.class)).getDelegate())
				.isInstanceOf(ExceptionHandlingWebHandler.class);
		});
	}

	@Test
	void reactiveDirectServerRequestsNeedRecording() {
		this.reactiveRunner
			.withPropertyValues("leanscrape.recording.direct-server-requests=true",
					"leanscrape.recording.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(WebHttpHandlerBuilderCustomizer.class);
				assertThat(((HttpWebHandlerAdapter) context.getBean(HttpHandler.class)).getDelegate())
					.isInstanceOf(ExceptionHandlingWebHandler.class);
			});
	}

	@Test
	void reactiveDirectServerRequestsNeedAReactiveApplication() {
		this.webRunner.run((context) -> assertThat(context).doesNotHaveBean(WebHttpHandlerBuilderCustomizer.class));
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(WebHttpHandlerBuilderCustomizer.class));
	}

	@Test
	void reactiveDirectServerRequestsNeedSpringWebFlux() {
		this.reactiveRunner.withClassLoader(new FilteredClassLoader(DispatcherHandler.class))
			.run((context) -> assertThat(context).doesNotHaveBean(WebHttpHandlerBuilderCustomizer.class));
		this.reactiveRunner.withClassLoader(new FilteredClassLoader(WebHttpHandlerBuilderCustomizer.class))
			.run((context) -> assertThat(context).doesNotHaveBean(WebHttpHandlerBuilderCustomizer.class));
	}

	@Test
	void reactiveDirectServerRequestsKeepObservationsForACustomConvention() {
		this.reactiveRunner.withUserConfiguration(SubclassedReactiveConventionConfiguration.class)
			.run((context) -> assertThat(recordingWebHandler(context).isBypassingObservations()).isFalse());
		// Spring's own convention, with a name of its own, has Spring's key values.
		this.reactiveRunner.withUserConfiguration(CustomReactiveConventionConfiguration.class)
			.run((context) -> assertThat(recordingWebHandler(context).isBypassingObservations()).isTrue());
	}

	@Test
	void reactiveDirectServerRequestsKeepObservationsForAnotherHandler() {
		this.reactiveRunner.withUserConfiguration(OtherObservationHandlerConfiguration.class).run((context) -> {
			assertThat(recordingWebHandler(context).isBypassingObservations()).isFalse();
			// The adapter observes in the application's registry, as Spring Boot's.
			assertThat(((HttpWebHandlerAdapter) context.getBean(HttpHandler.class)).getObservationRegistry())
				.isSameAs(context.getBean(ObservationRegistry.class));
		});
	}

	@Test
	void conventionTakesTheDefaultConventionsPlaceInSpringMvc() {
		this.webRunner.run((context) -> {
			assertThat(context).hasSingleBean(CachingServerRequestObservationConvention.class);
			CachingServerRequestObservationConvention convention = context
				.getBean(CachingServerRequestObservationConvention.class);
			assertThat(convention.getName()).isEqualTo("http.server.requests");
			assertThat(observationFilter(context)).extracting("observationConvention").isSameAs(convention);
		});
	}

	@Test
	void conventionHonoursTheConfiguredName() {
		this.webRunner.withPropertyValues("management.observations.http.server.requests.name=custom.requests")
			.run((context) -> assertThat(context.getBean(CachingServerRequestObservationConvention.class).getName())
				.isEqualTo("custom.requests"));
	}

	@Test
	void conventionHonoursMaxCachedMeters() {
		this.webRunner.withPropertyValues("leanscrape.recording.max-cached-meters=1").run((context) -> {
			CachingServerRequestObservationConvention convention = context
				.getBean(CachingServerRequestObservationConvention.class);
			for (String pattern : new String[] { "/a", "/b", "/c" }) {
				ServerRequestObservationContext observation = new ServerRequestObservationContext(
						new MockHttpServletRequest("GET", pattern), new MockHttpServletResponse());
				observation.setPathPattern(pattern);
				assertThat(convention.getLowCardinalityKeyValues(observation)).contains(KeyValue.of("uri", pattern));
			}
			assertThat(convention.cachedCombinationCount()).isEqualTo(1);
		});
	}

	@Test
	void conventionBacksOffForTheApplicationsOwnConvention() {
		this.webRunner.withUserConfiguration(CustomConventionConfiguration.class).run((context) -> {
			assertThat(context).doesNotHaveBean(CachingServerRequestObservationConvention.class);
			assertThat(observationFilter(context)).extracting("observationConvention")
				.isSameAs(context.getBean("customConvention"));
		});
	}

	@Test
	void conventionNeedsRecording() {
		this.webRunner.withPropertyValues("leanscrape.recording.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(CachingServerRequestObservationConvention.class);
			assertThat(observationFilter(context)).extracting("observationConvention")
				.isExactlyInstanceOf(DefaultServerRequestObservationConvention.class);
		});
	}

	@Test
	void conventionNeedsASpringMvcApplication() {
		this.runner
			.run((context) -> assertThat(context).doesNotHaveBean(CachingServerRequestObservationConvention.class));
		new ReactiveWebApplicationContextRunner().withPropertyValues("management.metrics.use-global-registry=false")
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
					SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
					LeanscrapeRecordingAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CachingServerRequestObservationConvention.class));
		this.webRunner.withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CachingServerRequestObservationConvention.class));
	}

	@Test
	void reactiveConventionTakesTheDefaultConventionsPlaceInSpringWebFlux() {
		this.reactiveRunner.run((context) -> {
			assertThat(context).hasSingleBean(CachingReactiveServerRequestObservationConvention.class);
			CachingReactiveServerRequestObservationConvention convention = context
				.getBean(CachingReactiveServerRequestObservationConvention.class);
			assertThat(convention.getName()).isEqualTo("http.server.requests");
			assertThat(httpHandlerConvention(context)).isSameAs(convention);
		});
	}

	@Test
	void reactiveConventionHonoursTheConfiguredName() {
		this.reactiveRunner.withPropertyValues("management.observations.http.server.requests.name=custom.requests")
			.run((context) -> assertThat(
					context.getBean(CachingReactiveServerRequestObservationConvention.class).getName())
				.isEqualTo("custom.requests"));
	}

	@Test
	void reactiveConventionHonoursMaxCachedMeters() {
		this.reactiveRunner.withPropertyValues("leanscrape.recording.max-cached-meters=1").run((context) -> {
			CachingReactiveServerRequestObservationConvention convention = context
				.getBean(CachingReactiveServerRequestObservationConvention.class);
			for (String pattern : new String[] { "/a", "/b", "/c" }) {
				assertThat(convention.getLowCardinalityKeyValues(reactiveObservation(pattern)))
					.contains(KeyValue.of("uri", pattern));
			}
			assertThat(convention.cachedCombinationCount()).isEqualTo(1);
		});
	}

	@Test
	void reactiveConventionBacksOffForTheApplicationsOwnConvention() {
		this.reactiveRunner.withUserConfiguration(CustomReactiveConventionConfiguration.class).run((context) -> {
			assertThat(context).doesNotHaveBean(CachingReactiveServerRequestObservationConvention.class);
			assertThat(httpHandlerConvention(context)).isSameAs(context.getBean("customConvention"));
		});
	}

	@Test
	void reactiveConventionNeedsRecording() {
		this.reactiveRunner.withPropertyValues("leanscrape.recording.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(CachingReactiveServerRequestObservationConvention.class);
			assertThat(httpHandlerConvention(context)).isExactlyInstanceOf(
					org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention.class);
		});
	}

	@Test
	void reactiveConventionNeedsASpringWebFluxApplication() {
		this.runner.run((context) -> assertThat(context)
			.doesNotHaveBean(CachingReactiveServerRequestObservationConvention.class));
		this.webRunner.run((context) -> assertThat(context)
			.doesNotHaveBean(CachingReactiveServerRequestObservationConvention.class));
		this.reactiveRunner.withClassLoader(new FilteredClassLoader(DispatcherHandler.class))
			.run((context) -> assertThat(context)
				.doesNotHaveBean(CachingReactiveServerRequestObservationConvention.class));
	}

	private static org.springframework.http.server.reactive.observation.ServerRequestObservationContext reactiveObservation(
			String pattern) {
		org.springframework.http.server.reactive.observation.ServerRequestObservationContext observation = new org.springframework.http.server.reactive.observation.ServerRequestObservationContext(
				MockServerHttpRequest.get(pattern).build(), new MockServerHttpResponse(), new HashMap<>());
		observation.setPathPattern(pattern);
		return observation;
	}

	/**
	 * Return the convention that Spring Boot's HTTP handler observes requests with.
	 */
	private static Object httpHandlerConvention(AssertableReactiveWebApplicationContext context) {
		assertThat(context).hasNotFailed();
		return ReflectionTestUtils.getField(context.getBean(HttpHandler.class), "observationConvention");
	}

	private static ServerRequestRecordingWebHandler recordingWebHandler(
			AssertableReactiveWebApplicationContext context) {
		assertThat(context).hasNotFailed();
		HttpHandler httpHandler = context.getBean(HttpHandler.class);
		assertThat(httpHandler).isExactlyInstanceOf(HttpWebHandlerAdapter.class);
		assertThat(((HttpWebHandlerAdapter) httpHandler).getDelegate())
			.isInstanceOf(ServerRequestRecordingWebHandler.class);
		return (ServerRequestRecordingWebHandler) ((HttpWebHandlerAdapter) httpHandler).getDelegate();
	}

	private static ServerHttpObservationFilter observationFilter(AssertableWebApplicationContext context) {
		assertThat(context).getBeans(FilterRegistrationBean.class).hasSize(1);
		return (ServerHttpObservationFilter) context.getBean(FilterRegistrationBean.class).getFilter();
	}

	private static void observeTwice(AssertableApplicationContext context) {
		ObservationRegistry observations = context.getBean(ObservationRegistry.class);
		for (int i = 0; i < 2; i++) {
			Observation.createNotStarted("test.work", observations).lowCardinalityKeyValue("kind", "a").start().stop();
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomConventionConfiguration {

		@Bean
		ServerRequestObservationConvention customConvention() {
			return new DefaultServerRequestObservationConvention("custom.requests");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomReactiveConventionConfiguration {

		@Bean
		org.springframework.http.server.reactive.observation.ServerRequestObservationConvention customConvention() {
			return new org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention(
					"custom.requests");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SubclassedReactiveConventionConfiguration {

		@Bean
		org.springframework.http.server.reactive.observation.ServerRequestObservationConvention customConvention() {
			return new org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention() {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OtherObservationHandlerConfiguration {

		@Bean
		io.micrometer.observation.ObservationHandler<Observation.Context> otherHandler() {
			return (context) -> true;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomObservationFilterConfiguration {

		@Bean
		FilterRegistrationBean<ServerHttpObservationFilter> customFilter(ObservationRegistry registry) {
			return new FilterRegistrationBean<>(new ServerHttpObservationFilter(registry));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomHandlerConfiguration {

		@Bean
		CachingMeterObservationHandler customHandler() {
			return new CachingMeterObservationHandler(new SimpleMeterRegistry(), 10);
		}

	}

}
