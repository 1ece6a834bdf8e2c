"""Every registered stationary kernel is varlab.kernels.<name>, the name RFF(kernel=...) takes."""


def test_each_registered_kernel_is_a_function_under_the_name_rff_takes():
    import numpy as np

    from varlab import kernels
    from varlab.theory import stationary_kernels

    X = np.random.default_rng(0).standard_normal((5, 3))
    for name in stationary_kernels():
        # the explicit functions (gaussian, laplacian, ...) compute their own way: to rounding
        assert np.allclose(getattr(kernels, name)(X, gamma=0.7),
                           kernels.stationary(X, kernel=name, gamma=0.7), rtol=1e-12, atol=0), name
    assert np.array_equal(kernels.matern32(X), kernels.matern(X, nu=1.5))
