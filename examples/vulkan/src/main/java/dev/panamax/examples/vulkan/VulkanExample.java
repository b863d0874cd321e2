package dev.panamax.examples.vulkan;

import dev.panamax.examples.vulkan.binding.VkPhysicalDevice;
import dev.panamax.examples.vulkan.binding.VkPhysicalDeviceProperties;
import dev.panamax.examples.vulkan.binding.Vulkan;
import dev.panamax.examples.vulkan.binding.VulkanApi;
import dev.panamax.examples.vulkan.binding.VulkanException;

import java.util.List;

/**
 * Vulkan's instance level through the binding bindgen generated from {@code vulkan_core.h}, on
 * lavapipe (mesa-vulkan-drivers), the CPU Vulkan device: the loader's version and extensions, an
 * instance created and its physical devices read, a missing extension reported by name, the instance
 * destroyed once. Every result is checked; a wrong one ends the program with a non-zero exit status.
 * Where the loader finds no driver, it fails naming {@code mesa-vulkan-drivers}.
 *
 * <p>A standalone project like {@code examples/sqlite}. {@code src/main/decl/vulkan.yaml} is
 * {@code bindgen import} of {@code vulkan_core.h} filtered to the instance level the example uses (the
 * pom's {@code <filter>}: six functions, the {@code VkResult} codes, two structure types, the API
 * versions and two sizes; the structs, handles and callbacks those use come along: 7 structs, 2
 * handles, 5 callback types, 59 constants). The whole header imports too (578 functions, see the
 * bindgen bench), but its 19 s of javac would be most of a minute added to every build for functions
 * nothing here calls. Annotated: the {@code vk_result} convention ({@code VK_SUCCESS} and every
 * positive code, {@code VK_INCOMPLETE} included, succeed; the negative ones are named), the count/array
 * pairs of {@code vkEnumerateInstanceExtensionProperties} and {@code vkEnumeratePhysicalDevices} (count
 * {@code inout}, array {@code out} with {@code length:} the count, NULL for the first call),
 * out-parameters, nullable allocators. The importer refuses the extension-name macros
 * ({@code VK_KHR_SURFACE_EXTENSION_NAME}: a string, not a number), so the filter keeps none;
 * {@code # annotate:} stays on the allocation callbacks nothing registers. {@code VkInstance} stays a
 * borrowed handle: a declared release takes the handle alone (it is linked as {@code void release(h)}),
 * and {@code vkDestroyInstance} also takes {@code pAllocator}, so naming it as the release would leave
 * that argument's register unset; {@link Instance} owns the handle instead. The build imports the
 * header again ({@code failOnChange}) and checks the file against {@code vulkan_core.h} (367
 * assertions).
 */
public final class VulkanExample {
    private static final String NO_DRIVER = "the Vulkan loader found no driver (ICD): install mesa-vulkan-drivers"
            + " (lavapipe, a CPU Vulkan device; ./panamax installs it) or point VK_ICD_FILENAMES at an ICD manifest";

    private VulkanExample() {}

    public static void main(String[] args) {
        int version = Instance.version();
        check(Integer.compareUnsigned(version, Vulkan.VK_API_VERSION_1_0) >= 0, "instance version " + Integer.toHexString(version) + " below 1.0");
        check(version >>> 29 == 0, "variant of instance version " + Integer.toHexString(version));

        List<String> extensions = Instance.extensions();
        check(!extensions.isEmpty(), "no instance extension; " + NO_DRIVER);
        check(extensions.stream().allMatch(name -> name.startsWith("VK_")), "extension names " + extensions);
        check(extensions.size() == extensions.stream().distinct().count(), "an extension listed twice: " + extensions);

        String deviceName;
        try (Instance vk = create(List.of(extensions.getFirst()))) {
            List<VkPhysicalDevice> devices = vk.physicalDevices();
            check(!devices.isEmpty(), "no physical device; " + NO_DRIVER);
            List<String> names = devices.stream().map(Instance::deviceName).toList();
            check(names.stream().anyMatch(name -> name.startsWith("llvmpipe")), "no lavapipe device (llvmpipe ...) among " + names + "; " + NO_DRIVER);
            deviceName = names.getFirst();
            VkPhysicalDeviceProperties properties = VulkanApi.vkGetPhysicalDeviceProperties(devices.getFirst());
            check(Integer.compareUnsigned(properties.apiVersion(), Vulkan.VK_API_VERSION_1_0) >= 0, "device API version below 1.0");
            check(properties.limits().maxImageDimension2D() >= 4096, "maxImageDimension2D " + properties.limits().maxImageDimension2D() + " below 4096");
            enumerationCounts(vk, devices.size());
        }

        Instance closed = create(List.of());
        closed.close();
        closed.close();   // destroyed once: the second close does nothing
        check(closed.isClosed(), "a closed instance says it is open");
        try {
            closed.physicalDevices();
            throw new AssertionError("a closed instance listed its devices");
        } catch (IllegalStateException e) {
            check(e.getMessage().equals("the Vulkan instance is closed"), "message of a closed instance: " + e.getMessage());
        }

        try {
            Instance.create("panamax-example", List.of("VK_PANAMAX_no_such_extension")).close();
            throw new AssertionError("an instance with a missing extension was created");
        } catch (VulkanException e) {
            check(e.function().equals("vkCreateInstance"), "function of a missing extension: " + e.function());
            check(e.code() == Vulkan.VK_ERROR_EXTENSION_NOT_PRESENT, "result of a missing extension: " + e.getMessage());
            check(e.getMessage().contains("VK_ERROR_EXTENSION_NOT_PRESENT (-7) in vkCreateInstance"), "message of a missing extension: " + e.getMessage());
        }
        System.out.println("vulkan " + (version >>> 22) + "." + ((version >>> 12) & 0x3ff) + " instance on " + deviceName + ", "
                + extensions.size() + " instance extensions, errors and handles as expected: correct");
    }

    /** The count of an enumeration is what was written: all of them, or none into an empty array (VK_INCOMPLETE succeeds). */
    private static void enumerationCounts(Instance vk, int all) {
        int[] count = new int[1];
        VulkanApi.vkEnumeratePhysicalDevices(vk.handle(), count, null);
        check(count[0] == all, "device count " + count[0] + ", expected " + all);
        count[0] = 0;
        VulkanApi.vkEnumeratePhysicalDevices(vk.handle(), count, new VkPhysicalDevice[0]);
        check(count[0] == 0, "devices written into an empty array: " + count[0]);
        VkPhysicalDevice[] devices = new VkPhysicalDevice[all];
        count[0] = all;
        VulkanApi.vkEnumeratePhysicalDevices(vk.handle(), count, devices);
        check(count[0] == all, "devices written: " + count[0] + ", expected " + all);
        for (VkPhysicalDevice d : devices) check(d != null && d.handle().address() != 0, "a null physical device");
    }

    /** Creates an instance, failing with what to install when the loader has no driver to create it on. */
    private static Instance create(List<String> extensions) {
        try {
            return Instance.create("panamax-example", extensions);
        } catch (VulkanException e) {
            if (e.code() == Vulkan.VK_ERROR_INCOMPATIBLE_DRIVER) throw new IllegalStateException(NO_DRIVER + " (" + e.getMessage() + ")", e);
            throw e;
        }
    }

    private static void check(boolean holds, String otherwise) {
        if (!holds) throw new AssertionError(otherwise);
    }
}
