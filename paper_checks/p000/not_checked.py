"""Paper 000's results that no claim decides (issue 35): figures and tables on data sets that are not
shipped offline, and the training times of Fig. 18. Each is listed in the report after the claims."""
from __future__ import annotations

from varlab.claims import NotChecked

_CURVES = "We can see that the linearized RBF (using NRFF) would require substantially more samples in order " \
          "to reach the same accuracies as the linearized GMM kernel (using GCWS)."
_AGAIN = "Again, we can see that the linearized RBF would require substantially more samples in order to " \
         "reach the same accuracies as the linearized GMM kernel."
_SHIPPED_HASHING = ("The caption's statement is decided on shipped sets of the same kind (UCI/LIBSVM "
                    "classification sets, hashed by GCWS and NRFF and fitted by LIBLINEAR as in the figure) "
                    "by 000.sec5.gcws_fewer_samples and its scaled twin: letter, magic, segment (ImageSeg) and "
                    "vowel at the quick budget, letter, segment, splice and vowel at the full; they stand in "
                    "because they are the sets of Tables 1-2 that varlab ships, not because they resemble this "
                    "figure's set.")


def _not_shipped(names: str) -> str:
    return f"{names} not shipped offline (varlab.datasets.catalog() has no such set; nothing is downloaded)."


#: [10]'s numbers, which Fig. 9 and Table 4 print beside the paper's own
_PUBLISHED = " {} is [10]'s published numbers, which no run of varlab gives."


NotChecked("000.figs5_8.not_shipped", where="000, §4, Figs. 5-8 (accuracy against C on the sets of Tables 1-3)",
           quote="Figure 5: Test classification accuracies using kernel SVMs. Both the GMM kernel and RBF kernel "
                 "substantially improve linear SVM.",
           reason="The curves run over every C on the sets of Tables 1-3 (51 with kernel SVM results), of which "
                  "varlab ships seven (letter, magic, satimage, segment as ImageSeg, spambase, splice, vowel); the "
                  "text copy gives no panel's "
                  "data set or values (each panel is an image, 'Refer to caption'). On the seven shipped sets the "
                  "SVMs are run over a grid of C for 000.tables12.*, which read each method's best C, not the "
                  "curves.")

NotChecked("000.fig9.not_shipped", where="000, §4, Fig. 9 (M-Noise1 to M-Noise6)",
           quote="Figure 9: Error rates on 6 datasets: M-Noise1 to M-Noise6 as in Table 3. In this figure, the curve "
                 "labeled as “SVM” represents the results on RBF kernel SVM conducted by [10], while the curve "
                 "labeled as “RBF” presents our own experiments.",
           reason=_not_shipped("M-Noise1 to M-Noise6 (MNIST variants of [10], 784-d, 10000/4000) are")
           + _PUBLISHED.format("The 'SVM' curve"))

NotChecked("000.table3.not_shipped", where="000, §4, Table 3 (M-Basic to M-RotImg)",
           quote="Table 3: Datasets from [10, 11]. ... For more than half of the datasets, the GMM kernel (which "
                 "has no tuning parameter) outperforms the best-tuned RBF kernel.",
           reason=_not_shipped("None of Table 3's eleven MNIST variants (M-Basic, M-Image, M-Noise1-6, M-Rand, "
                               "M-Rotate, M-RotImg; 784-d) is")
           + " The sentence (said of Tables 1-3) is decided on the shipped sets of Tables 1-2 by "
             "000.tables12.gmm_beats_rbf; the shipped digit sets (digits, optdigits: 8x8 images) lack the noise, "
             "backgrounds and rotations that Table 3's sets vary, so none stands in.")

NotChecked("000.table4.not_shipped", where="000, §4, Table 4 (M-Basic, M-Rotate, M-Image, M-Rand, M-RotImg)",
           quote="Table 4: Summary of test error rates of various algorithms on other datasets used in [10, 11]. "
                 "Results in group 1 are reported by [10] for using RBF kernel, polynomial kernel, and neural nets. "
                 "Results in group 2 are from our own experiments.",
           reason=_not_shipped("Its five MNIST variants (784-d, 12000/50000) are")
           + _PUBLISHED.format("Group 1 (SVM-RBF, SVM-POLY, NNET)"))

NotChecked("000.fig11.not_shipped", where="000, §5, Fig. 11 (Webspam20k)",
           quote="Figure 11: Webspam20k: Test classification accuracies of the linearized GMM kernel (solid, GCWS) "
                 "and linearized RBF kernel (dashed, NRFF), using LIBLINEAR, averaged over 10 repetitions. ... "
                 + _CURVES,
           reason=_not_shipped("Webspam20k (LIBSVM's webspam, 254-d) is"), stand_in=_SHIPPED_HASHING)

NotChecked("000.fig12.not_shipped", where="000, §5, Fig. 12 (DailySports)",
           quote=f"Figure 12: DailySports: Test classification accuracies of the linearized GMM kernel (solid) and "
                 f"linearized RBF kernel (dashed) , using LIBLINEAR. ... {_CURVES}",
           reason=_not_shipped("DailySports (5625-d) is"), stand_in=_SHIPPED_HASHING)

NotChecked("000.fig13.not_shipped", where="000, §5, Fig. 13 (RobotNavi)",
           quote=f"Figure 13: RobotNavi: Test classification accuracies of the linearized GMM kernel (solid) and "
                 f"linearized RBF kernel (dashed), using LIBLINEAR. ... {_CURVES}",
           reason=_not_shipped("RobotNavi (24-d) is"), stand_in=_SHIPPED_HASHING)

NotChecked("000.fig14.not_shipped", where="000, §5, Fig. 14 (SEMG1)",
           quote=f"Figure 14: SEMG1: Test classification accuracies of the linearized GMM kernel (solid) and "
                 f"linearized RBF kernel (dashed), using LIBLINEAR. {_AGAIN} Note that, for this dataset, the "
                 f"original RBF kernel actually outperforms the original GMM kernel as shown in Table 1.",
           reason=_not_shipped("SEMG1 (3000-d) is"),
           stand_in=_SHIPPED_HASHING)

NotChecked("000.fig15.not_shipped", where="000, §5, Fig. 15 (M-Rotate)",
           quote=f"Figure 15: M-Rotate: Test classification accuracies of the linearized GMM kernel (solid) and "
                 f"linearized RBF kernel (dashed) , using LIBLINEAR. {_AGAIN} For M-Rotate, the original RBF kernel "
                 f"actually outperforms the original GMM kernel as shown in Table 3.",
           reason=_not_shipped("M-Rotate (an MNIST variant of [10], 784-d, 12000/50000) is"), stand_in=_SHIPPED_HASHING)

NotChecked("000.fig17.not_shipped", where="000, §5, Fig. 17 (the six larger sets of Table 2, groups 2-3)",
           quote="Figure 17: Larger Datasets: Test classification accuracies of the linearized GMM kernel with GCWS "
                 "(solid) and linearized RBF kernel with NRFF (dashed), using LIBLINEAR, on 6 larger datasets which we "
                 "can not directly compute kernel SVM classifiers. The experiments again confirm that GCWS hashing is "
                 "substantially more accurate than NRFF hashing at the same sample size",
           reason=_not_shipped("None of PAMAP101Large, PAMAP105Large, IJCNN, RCV1, SensIT and Webspam "
                               "(78,823 to 338,699 training rows) is"),
           stand_in=_SHIPPED_HASHING)

NotChecked("000.fig18.training_time", where="000, §5, 'Training time' and Fig. 18 (PAMAP105Large)",
           quote="Figure 18: PAMAP105Large: Training times of GCWS (solid curves) and NRFF (dashed curves) ... "
                 "the training times of GCWS and NRFF will be roughly comparable.",
           reason="Training times depend on the machine, the solver's build and the load beside it, so no rerun "
                  "reproduces them (varlab's hashing units record each fit's time, and no claim reads it); and "
                  + _not_shipped("PAMAP105Large (185,548 training rows) is"))
