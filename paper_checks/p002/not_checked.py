"""Paper 002's results that no claim decides (issue 35): the columns and panels of the data sets not
shipped offline, and the sampling-time comparison of Fig. 3. Each is listed in the report after the
claims."""
from __future__ import annotations

from varlab.claims import NotChecked

NotChecked("002.datasets.ijcnn1_codrna",
           where="002, Section 5: Table 1's ijcnn1 and cod-RNA columns, and their panels of Figs. 2-3",
           quote="Datasets spambase ijcnn1 letter cod-RNA",
           reason="ijcnn1 and cod-RNA are not shipped offline (varlab.datasets.catalog() has neither; nothing "
                  "is downloaded); the claims on Table 1 and Figs. 2-3 (002.table1, 002.table1.baselines, "
                  "002.fig2, 002.fig2.sd, 002.fig3.*) decide the paper's statements on spambase and letter, the "
                  "two shipped sets of the four. No shipped set stands in for these two in particular.")

NotChecked("002.fig3.sampling_time", where="002, Section 5.2, Fig. 3 (the sampling time cost bars)",
           quote="But with more features, the AsK-RFF needs more computational time, which, however, is always "
                 "significantly cheaper to calculate the kernel function and solve SVMs in the dual space.",
           reason="times are measurements of a machine, not a law a simulation decides: "
                  "benchmarks/bench_askrff_sampling.py measures AsK-RFF's sampling time against the exact "
                  "asymmetric Gram on the shipped sets (benchmarks/results/askrff_sampling.md); solving the SVM "
                  "in the dual space is not timed.")
